using System.Buffers.Binary;
using System.Globalization;
using System.Text.Json;
using System.Text.Unicode;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Writes a BSON document as UTF-8 JSON by walking its bytes, producing exactly the bytes (and token count) that
/// Newtonsoft's <c>BsonDataReader</c> gives for it. The walk handles the BSON the write path produces; at the first
/// element it cannot vouch for (a length that does not fit, a type writes never produce, text that is not UTF-8,
/// a long name, ...) it hands the document to <c>BsonDataReader</c> itself, which reads on past the tokens already
/// written (see <see cref="WriteThroughNewtonsoft"/>).
/// </summary>
internal static partial class BsonJsonTranscoder
{
    // Documents written now nest at most DocumentContent.MaxDepth (128) levels, older ones at most 129; deeper
    // ones are rare enough to leave to BsonDataReader, which applies its own limit.
    private const int MaxDepth = 136;

    // BsonDataReader decodes names of 128 bytes or more in chunks, which mangles some of them: those are left to it.
    private const int MaxNameBytes = 127;

    /// <summary>Writes <paramref name="bson"/> to <paramref name="writer"/>.</summary>
    /// <returns>How many JSON tokens were written.</returns>
    public static int Write(ReadOnlySpan<byte> bson, Utf8JsonWriter writer)
    {
        var length = bson.Length >= 5 ? BinaryPrimitives.ReadInt32LittleEndian(bson) : 0;
        if (length < 5 || length > bson.Length)
            return WriteThroughNewtonsoft(bson, writer, written: 0);

        Span<Frame> frames = stackalloc Frame[MaxDepth];
        var depth = 0;
        frames[0] = new Frame(length, IsArray: false);
        writer.WriteStartObject();
        var tokens = 1;
        var cursor = 4;
        while (true)
        {
            var frame = frames[depth];
            var last = frame.End - 1; // where the container's terminating zero belongs
            if (cursor < last)
            {
                // Everything about the element is checked before any of it is written, so that a hand-off
                // happens between tokens.
                var type = bson[cursor];
                var nameLength = bson.Slice(cursor + 1, Math.Min(last - cursor - 1, MaxNameBytes + 1)).IndexOf((byte)0);
                if (nameLength < 0)
                    break;
                var name = bson.Slice(cursor + 1, nameLength);
                var valueAt = cursor + 2 + nameLength;
                var value = bson[valueAt..last];
                var size = ValueSize(type, value);
                var opens = type is 0x03 or 0x04;
                if (size < 0 || (opens && depth + 1 == MaxDepth) || (!frame.IsArray && !Utf8.IsValid(name)))
                    break;
                if (!frame.IsArray)
                {
                    writer.WritePropertyName(name);
                    tokens++;
                }
                tokens++;
                if (opens)
                {
                    frames[++depth] = new Frame(valueAt + size, IsArray: type == 0x04);
                    if (type == 0x04)
                        writer.WriteStartArray();
                    else
                        writer.WriteStartObject();
                    cursor = valueAt + 4;
                    continue;
                }
                WriteValue(type, value[..size], writer);
                cursor = valueAt + size;
            }
            else if (cursor == last && bson[last] == 0)
            {
                if (frame.IsArray)
                    writer.WriteEndArray();
                else
                    writer.WriteEndObject();
                tokens++;
                cursor++;
                if (depth-- == 0)
                    return tokens; // BsonDataReader, too, stops at the root's end and ignores anything after it
            }
            else
            {
                break;
            }
        }
        return WriteThroughNewtonsoft(bson, writer, tokens);
    }

    /// <summary>A container being written: where it ends, and whether its elements are unnamed.</summary>
    private readonly record struct Frame(int End, bool IsArray);

    /// <summary>
    /// How many bytes the value of an element of <paramref name="type"/> takes at the start of
    /// <paramref name="room"/> (for a document or array, its declared length), or -1 when the walk leaves it to
    /// <c>BsonDataReader</c>: a type writes never produce, a length that is negative or does not fit, text that is
    /// not UTF-8, or a value that reader refuses or reads some unusual way.
    /// </summary>
    private static int ValueSize(byte type, ReadOnlySpan<byte> room) => type switch
    {
        0x06 or 0x0A => 0,                         // undefined, null
        0x08 => room.Length >= 1 && room[0] <= 1 ? 1 : -1, // boolean
        0x10 => Fixed(4, room),                    // int32
        0x01 or 0x11 or 0x12 => Fixed(8, room),    // double, timestamp, int64
        0x09 => room.Length >= 8 && IsDate(BinaryPrimitives.ReadInt64LittleEndian(room)) ? 8 : -1,
        0x07 => Fixed(12, room),                   // ObjectId
        0x13 => Fixed(16, room),                   // decimal128, which BsonDataReader cannot read at all
        0x02 or 0x0D or 0x0E => StringSize(room),  // string, JavaScript code, symbol
        0x03 or 0x04 => ContainerSize(room),       // document, array
        0x05 => BinarySize(room),
        0x0B => RegexSize(room),
        _ => -1,                                   // DBPointer, code with scope, min/max key, unknown
    };

    private static int Fixed(int size, ReadOnlySpan<byte> room) => size <= room.Length ? size : -1;

    private static int StringSize(ReadOnlySpan<byte> room)
    {
        if (room.Length < 5)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(room); // counts the terminator, which BsonDataReader skips unread
        if (length < 1 || length > room.Length - 4 || !Utf8.IsValid(room.Slice(4, length - 1)))
            return -1;
        return 4 + length;
    }

    private static int ContainerSize(ReadOnlySpan<byte> room)
    {
        if (room.Length < 5)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(room);
        return length >= 5 && length <= room.Length ? length : -1;
    }

    private static int BinarySize(ReadOnlySpan<byte> room)
    {
        if (room.Length < 5)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(room);
        var subtype = room[4];
        // BsonDataReader fails on a UUID of any length but 16, and goes by the inner length that subtype 2
        // (old binary) repeats: both are left to it.
        if (length < 0 || length > room.Length - 5 || (subtype == 4 && length != 16))
            return -1;
        if (subtype == 2 && (length < 4 || BinaryPrimitives.ReadInt32LittleEndian(room[5..]) != length - 4))
            return -1;
        return 5 + length;
    }

    private static int RegexSize(ReadOnlySpan<byte> room)
    {
        var pattern = room[..Math.Min(room.Length, MaxNameBytes + 1)].IndexOf((byte)0);
        if (pattern < 0 || !Utf8.IsValid(room[..pattern]))
            return -1;
        var rest = room[(pattern + 1)..];
        var options = rest[..Math.Min(rest.Length, MaxNameBytes + 1)].IndexOf((byte)0);
        return options < 0 || !Utf8.IsValid(rest[..options]) ? -1 : pattern + options + 2;
    }

    /// <summary>Whether BsonDataReader can turn these milliseconds into a <see cref="DateTime"/>.</summary>
    private static bool IsDate(long unixMilliseconds) =>
        DateTicks(unixMilliseconds) is >= 0 and <= 3155378975999999999; // DateTime.MaxValue.Ticks

    /// <summary>BsonDataReader's conversion, overflow included: it multiplies without checking.</summary>
    private static long DateTicks(long unixMilliseconds) => unchecked((unixMilliseconds * 10000) + 621355968000000000);

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
