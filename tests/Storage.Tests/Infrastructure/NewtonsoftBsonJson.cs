using System.Buffers;
using System.Globalization;
using System.Numerics;
using System.Text.Encodings.Web;
using System.Text.Json;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// The read path as it was before BsonJsonTranscoder: Newtonsoft's <see cref="BsonDataReader"/> feeding a
/// <see cref="Utf8JsonWriter"/> token by token. Kept as the reference the new read path must match byte for byte.
/// The one change is <see cref="BoundedBinaryReader"/>, which spares the test run the huge allocations the old
/// reader made for lengths running past the input, without changing what it returns or throws.
/// </summary>
internal static class NewtonsoftBsonJson
{
    private static readonly JsonWriterOptions WriterOptions = new()
    {
        SkipValidation = true,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>Writes BSON as UTF-8 JSON the old way.</summary>
    /// <returns>How many JSON tokens were written.</returns>
    public static int ToJson(ReadOnlySpan<byte> bson, IBufferWriter<byte> output)
    {
        if (bson.IsEmpty) // the old path pinned the span, and an empty one gave its stream a null pointer
#pragma warning disable CA2208 // reproducing the old exception, which named UnmanagedMemoryStream's parameter
            throw new ArgumentNullException("pointer");
#pragma warning restore CA2208
        using var stream = new MemoryStream(bson.ToArray(), writable: false);
        using var reader = new BsonDataReader(new BoundedBinaryReader(stream), false, DateTimeKind.Utc) { MaxDepth = 1000 };
        using var writer = new Utf8JsonWriter(output, WriterOptions);
        var tokens = 0;
        for (; reader.Read(); tokens++)
            Write(reader, writer);
        return tokens;
    }

    private static void Write(JsonReader reader, Utf8JsonWriter writer)
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
            // The one deliberate change from the old path: it cast a UUID's Guid to bytes and threw, so a document
            // holding a Guid could be stored but never read (tests/Storage.Tests/Issues/GuidValueTests.cs).
            case JsonToken.Bytes when reader.Value is Guid guid: writer.WriteStringValue(guid); break;
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
