using System.Globalization;
using System.Text.Json;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

internal static partial class BsonJsonTranscoder
{
    /// <summary>
    /// Reads <paramref name="bson"/> from its first byte with Newtonsoft's <see cref="BsonDataReader"/> (decimal128 as
/// stand-ins, see <see cref="BsonDecimalMask"/>), passes over
    /// the first <paramref name="written"/> tokens (the walk wrote them already, exactly as this reader gives them)
    /// and writes the rest. Where the reader throws, so does this; where it stops quietly at the end of the bytes,
    /// the output stops there too.
    /// </summary>
    /// <returns>How many JSON tokens were written in all.</returns>
    internal static unsafe int WriteThroughNewtonsoft(ReadOnlySpan<byte> bson, Utf8JsonWriter writer, int written)
    {
        // That reader cannot read decimal128: it reads stand-ins, which are written back as the numbers.
        var decimals = BsonDecimalMask.Mask(bson);
        if (decimals?.Bson is { } masked)
            bson = masked;
        fixed (byte* bytes = bson)
        {
            using var stream = new UnmanagedMemoryStream(bytes, bson.Length);
            using var reader = new BsonDataReader(new BoundedBinaryReader(stream), readRootValueAsArray: false, DateTimeKind.Utc)
            {
                MaxDepth = Document.MaxReadDepth,
            };
            var tokens = 0;
            while (tokens < written && reader.Read())
                tokens++;
            for (; reader.Read(); tokens++)
                WriteToken(reader, writer, decimals);
            return tokens;
        }
    }

    private static void WriteToken(BsonDataReader reader, Utf8JsonWriter writer, BsonDecimalMask? decimals)
    {
        switch (reader.TokenType)
        {
            case JsonToken.String when decimals is not null && decimals.TryGet((string)reader.Value!, out var exact):
                WriteDecimal128(exact, writer);
                break;
            case JsonToken.StartObject: writer.WriteStartObject(); break;
            case JsonToken.EndObject: writer.WriteEndObject(); break;
            case JsonToken.StartArray: writer.WriteStartArray(); break;
            case JsonToken.EndArray: writer.WriteEndArray(); break;
            case JsonToken.PropertyName: writer.WritePropertyName((string)reader.Value!); break;
            case JsonToken.String: writer.WriteStringValue((string)reader.Value!); break;
            case JsonToken.Integer: writer.WriteNumberValue(Convert.ToInt64(reader.Value, CultureInfo.InvariantCulture)); break;
            case JsonToken.Float: WriteDouble(Convert.ToDouble(reader.Value, CultureInfo.InvariantCulture), writer); break;
            case JsonToken.Boolean: writer.WriteBooleanValue((bool)reader.Value!); break;
            case JsonToken.Date: WriteDate(((DateTime)reader.Value!).Ticks, writer); break;
            // BsonDataReader gives a UUID (binary subtype 4) as a Guid, which reads back as its string form.
            case JsonToken.Bytes when reader.Value is Guid guid: writer.WriteStringValue(guid); break;
            case JsonToken.Bytes: writer.WriteBase64StringValue((byte[])reader.Value!); break;
            default: writer.WriteNullValue(); break; // null and undefined: BsonDataReader gives no other token
        }
    }

    // Apart, so that the stack space is not taken for every token.
    private static void WriteDecimal128(Decimal128Bits value, Utf8JsonWriter writer)
    {
        Span<byte> bytes = stackalloc byte[16];
        value.WriteTo(bytes);
        BsonNumbers.WriteJson(bytes, writer);
    }
}
