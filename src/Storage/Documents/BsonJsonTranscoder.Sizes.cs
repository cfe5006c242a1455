using System.Buffers.Binary;
using System.Text.Unicode;

namespace RavenLite.Storage.Documents;

internal static partial class BsonJsonTranscoder
{
    // The old reader decoded a string of more than 128 bytes in 128-byte chunks; for invalid UTF-8 that can
    // differ from decoding it whole, so such strings go to the token reader, which decodes them the old way.
    private const int MaxWholeDecodeBytes = 128;

    /// <summary>
    /// How many bytes the value of an element of <paramref name="type"/> takes at the start of
    /// <paramref name="room"/> (for a document or array, its declared length), or -1 when this walk does not
    /// handle it and the token reader must: an unknown type or one writes never produce, a length that is
    /// negative or does not fit, or a value the old reader refused or read some unusual way.
    /// </summary>
    private static int ValueSize(byte type, ReadOnlySpan<byte> room) => type switch
    {
        0x06 or 0x0A => 0,                         // undefined, null
        0x08 => Fixed(1, room),                    // boolean
        0x10 => Fixed(4, room),                    // int32
        0x01 or 0x11 or 0x12 => Fixed(8, room),    // double, timestamp, int64
        0x09 => room.Length >= 8 && IsDate(BinaryPrimitives.ReadInt64LittleEndian(room)) ? 8 : -1,
        0x07 => Fixed(12, room),                   // ObjectId
        0x02 or 0x0D or 0x0E => StringSize(room),  // string, JavaScript code, symbol
        0x03 or 0x04 => ContainerSize(room),       // document, array
        0x05 => BinarySize(room),
        0x0B => RegexSize(room),
        _ => -1,                                   // DBPointer, code with scope, decimal128, min/max key, unknown
    };

    private static int Fixed(int size, ReadOnlySpan<byte> room) => size <= room.Length ? size : -1;

    private static int StringSize(ReadOnlySpan<byte> room)
    {
        if (room.Length < 5)
            return -1;
        var length = BinaryPrimitives.ReadInt32LittleEndian(room); // counts the terminating zero, whose value the old reader never checked
        if (length < 1 || length > room.Length - 4)
            return -1;
        if (length - 1 > MaxWholeDecodeBytes && !Utf8.IsValid(room.Slice(4, length - 1)))
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
        // A UUID of any length but 16 failed the old reader's Guid; the token reader repeats that failure.
        // Subtype 2 (old binary) repeats its length inside, and the old reader trusted that one.
        if (length < 0 || length > room.Length - 5 || (subtype == 4 && length != 16))
            return -1;
        if (subtype == 2 && (length < 4 || BinaryPrimitives.ReadInt32LittleEndian(room[5..]) != length - 4))
            return -1;
        return 5 + length;
    }

    private static int RegexSize(ReadOnlySpan<byte> room)
    {
        var pattern = room[..Math.Min(room.Length, MaxNameBytes + 1)].IndexOf((byte)0);
        if (pattern < 0)
            return -1;
        var rest = room[(pattern + 1)..];
        var options = rest[..Math.Min(rest.Length, MaxNameBytes + 1)].IndexOf((byte)0);
        return options < 0 ? -1 : pattern + options + 2;
    }

    /// <summary>Whether the old reader could turn these milliseconds into a <see cref="DateTime"/>.</summary>
    private static bool IsDate(long unixMilliseconds) =>
        DateTicks(unixMilliseconds) is >= 0 and <= 3155378975999999999; // DateTime.MaxValue.Ticks

    /// <summary>The old reader's conversion, overflow included: it multiplied without checking.</summary>
    internal static long DateTicks(long unixMilliseconds) => unchecked((unixMilliseconds * 10000) + 621355968000000000);
}
