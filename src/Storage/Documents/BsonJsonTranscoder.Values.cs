using System.Buffers.Binary;
using System.Globalization;
using System.Text.Json;

namespace RavenLite.Storage.Documents;

internal static partial class BsonJsonTranscoder
{
    /// <summary>Writes a scalar value, already checked by <see cref="ValueSize"/>, as BsonDataReader's token for it.</summary>
    private static void WriteValue(byte type, ReadOnlySpan<byte> value, Utf8JsonWriter writer)
    {
        switch (type)
        {
            case 0x01:
                WriteDouble(BinaryPrimitives.ReadDoubleLittleEndian(value), writer);
                break;
            case 0x02 or 0x0D or 0x0E:
                writer.WriteStringValue(value[4..^1]);
                break;
            case 0x05 when value[4] == 4:
                writer.WriteStringValue(new Guid(value[5..])); // a Guid reads back as its string form
                break;
            case 0x05:
                writer.WriteBase64StringValue(value[(value[4] == 2 ? 9 : 5)..]);
                break;
            case 0x06 or 0x0A:
                writer.WriteNullValue();
                break;
            case 0x07:
                writer.WriteBase64StringValue(value);
                break;
            case 0x08:
                writer.WriteBooleanValue(value[0] == 1);
                break;
            case 0x09:
                WriteDate(DateTicks(BinaryPrimitives.ReadInt64LittleEndian(value)), writer);
                break;
            case 0x0B:
                WriteRegex(value, writer);
                break;
            case 0x10:
                writer.WriteNumberValue((long)BinaryPrimitives.ReadInt32LittleEndian(value));
                break;
            case 0x13:
                BsonNumbers.WriteJson(value, writer);
                break;
            default: // 0x11 timestamp, 0x12 int64: ValueSize lets nothing else through
                writer.WriteNumberValue(BinaryPrimitives.ReadInt64LittleEndian(value));
                break;
        }
    }

    /// <summary>JSON has no NaN or infinities, so those are written as strings.</summary>
    private static void WriteDouble(double value, Utf8JsonWriter writer)
    {
        if (double.IsFinite(value))
            writer.WriteNumberValue(value);
        else
            writer.WriteStringValue(double.IsNaN(value) ? "NaN"u8 : value > 0 ? "Infinity"u8 : "-Infinity"u8);
    }

    private static void WriteDate(long ticks, Utf8JsonWriter writer)
    {
        Span<byte> text = stackalloc byte[40];
        new DateTime(ticks, DateTimeKind.Utc).TryFormat(text, out var written, "O", CultureInfo.InvariantCulture);
        writer.WriteStringValue(text[..written]);
    }

    /// <summary>A regular expression reads as the string <c>/pattern/options</c>.</summary>
    private static void WriteRegex(ReadOnlySpan<byte> value, Utf8JsonWriter writer)
    {
        var patternLength = value.IndexOf((byte)0);
        var pattern = value[..patternLength];
        var options = value[(patternLength + 1)..^1];
        Span<byte> text = stackalloc byte[2 * (MaxNameBytes + 1)];
        text[0] = (byte)'/';
        pattern.CopyTo(text[1..]);
        text[1 + pattern.Length] = (byte)'/';
        options.CopyTo(text[(2 + pattern.Length)..]);
        writer.WriteStringValue(text[..(2 + pattern.Length + options.Length)]);
    }
}
