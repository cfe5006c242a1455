using System.Globalization;
using System.Numerics;
using System.Text.Json;
using Newtonsoft.Json;

namespace RavenLite.Storage.Documents;

/// <summary>Maps one Newtonsoft reader token onto a System.Text.Json writer.</summary>
internal static class BsonJsonTokens
{
    public static void Write(JsonReader reader, Utf8JsonWriter writer)
    {
        switch (reader.TokenType)
        {
            case JsonToken.StartObject: writer.WriteStartObject(); break;
            case JsonToken.EndObject: writer.WriteEndObject(); break;
            case JsonToken.StartArray: writer.WriteStartArray(); break;
            case JsonToken.EndArray: writer.WriteEndArray(); break;
            case JsonToken.PropertyName: writer.WritePropertyName((string)reader.Value!); break;
            case JsonToken.String: writer.WriteStringValue((string)reader.Value!); break;
            case JsonToken.Integer: WriteInteger(reader.Value!, writer); break;
            case JsonToken.Float: WriteDouble(Convert.ToDouble(reader.Value, CultureInfo.InvariantCulture), writer); break;
            case JsonToken.Boolean: writer.WriteBooleanValue((bool)reader.Value!); break;
            case JsonToken.Null or JsonToken.Undefined: writer.WriteNullValue(); break;
            case JsonToken.Date: writer.WriteStringValue(FormatDate(reader.Value!)); break;
            case JsonToken.Bytes: writer.WriteBase64StringValue((byte[])reader.Value!); break;
            default: writer.WriteStringValue(Convert.ToString(reader.Value, CultureInfo.InvariantCulture)); break;
        }
    }

    private static void WriteInteger(object value, Utf8JsonWriter writer)
    {
        if (value is BigInteger big)
            writer.WriteRawValue(big.ToString(CultureInfo.InvariantCulture), skipInputValidation: true);
        else
            writer.WriteNumberValue(Convert.ToInt64(value, CultureInfo.InvariantCulture));
    }

    private static void WriteDouble(double value, Utf8JsonWriter writer)
    {
        // JSON has no NaN or infinities; Newtonsoft writes them as strings, and so do we.
        if (double.IsFinite(value))
            writer.WriteNumberValue(value);
        else
            writer.WriteStringValue(value.ToString(CultureInfo.InvariantCulture));
    }

    private static string FormatDate(object value) => value switch
    {
        DateTimeOffset dto => dto.ToString("O", CultureInfo.InvariantCulture),
        DateTime dt => dt.ToString("O", CultureInfo.InvariantCulture),
        _ => Convert.ToString(value, CultureInfo.InvariantCulture)!,
    };
}
