namespace RavenLite.Indexing.Codecs;

/// <summary>Unsigned LEB128 integers: word positions are stored as deltas in these.</summary>
internal static class VarInt
{
    public static void Write(List<byte> output, uint value)
    {
        while (value >= 0x80)
        {
            output.Add((byte)(value | 0x80));
            value >>= 7;
        }
        output.Add((byte)value);
    }

    public static uint Read(ReadOnlySpan<byte> source, ref int offset)
    {
        uint value = 0;
        for (var shift = 0; shift < 35; shift += 7)
        {
            var b = source[offset++];
            value |= (uint)(b & 0x7F) << shift;
            if (b < 0x80)
                return value;
        }
        throw new FormatException("A variable-length integer in an index is longer than 5 bytes.");
    }

    /// <summary>Ascending positions as deltas.</summary>
    public static byte[] EncodePositions(List<int> ascending)
    {
        var output = new List<byte>(ascending.Count * 2);
        var previous = 0;
        foreach (var position in ascending)
        {
            Write(output, (uint)(position - previous));
            previous = position;
        }
        return [.. output];
    }

    public static int[] DecodePositions(ReadOnlySpan<byte> source)
    {
        var positions = new List<int>();
        var offset = 0;
        var position = 0;
        while (offset < source.Length)
        {
            position += (int)Read(source, ref offset);
            positions.Add(position);
        }
        return [.. positions];
    }
}
