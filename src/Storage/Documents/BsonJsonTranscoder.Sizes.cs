using System.Buffers.Binary;
using System.Text.Unicode;

namespace RavenLite.Storage.Documents;

internal static partial class BsonJsonTranscoder
{
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
}
