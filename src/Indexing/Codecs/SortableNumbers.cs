using System.Buffers.Binary;

namespace RavenLite.Indexing.Codecs;

/// <summary>
/// 8-byte encodings of numbers whose unsigned byte order is numeric order, so numeric ranges are key-range scans.
/// </summary>
internal static class SortableNumbers
{
    public const int Length = 8;

    /// <summary>Big-endian with the sign bit flipped: negatives first, then zero, then positives.</summary>
    public static void WriteInt64(long value, Span<byte> destination) =>
        BinaryPrimitives.WriteUInt64BigEndian(destination, (ulong)value ^ 0x8000_0000_0000_0000UL);

    public static long ReadInt64(ReadOnlySpan<byte> source) =>
        (long)(BinaryPrimitives.ReadUInt64BigEndian(source) ^ 0x8000_0000_0000_0000UL);

    /// <summary>
    /// IEEE-754 total order: for positives flip the sign bit, for negatives flip every bit, then big-endian.
    /// -0 is written as 0 so the two compare equal, as they do in C#.
    /// </summary>
    public static void WriteDouble(double value, Span<byte> destination)
    {
        if (double.IsNaN(value))
            throw new ArgumentOutOfRangeException(nameof(value), "NaN has no place in a numeric index.");
        var bits = (ulong)BitConverter.DoubleToInt64Bits(value == 0 ? 0d : value);
        bits = (bits & 0x8000_0000_0000_0000UL) != 0 ? ~bits : bits ^ 0x8000_0000_0000_0000UL;
        BinaryPrimitives.WriteUInt64BigEndian(destination, bits);
    }

    public static double ReadDouble(ReadOnlySpan<byte> source)
    {
        var bits = BinaryPrimitives.ReadUInt64BigEndian(source);
        bits = (bits & 0x8000_0000_0000_0000UL) != 0 ? bits ^ 0x8000_0000_0000_0000UL : ~bits;
        return BitConverter.Int64BitsToDouble((long)bits);
    }
}
