using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

/// <summary>
/// Newtonsoft.Json.Bson neither writes nor reads BSON decimal128 (0x13). Where RavenLite still goes through it, a
/// decimal128 element stands in as a regular expression (0x0B) of the same 16 bytes, a 14-character pattern and no
/// options, whose pattern is a random marker of this use plus the value's position: <see cref="CheckedBsonWriter"/>
/// writes such stand-ins and <see cref="Unmask"/> turns them into decimal128 afterwards; the reads through
/// <c>BsonDataReader</c> get the stand-ins from <see cref="Mask"/> and <see cref="TryGet"/> gives the value back for
/// the string <c>/pattern/</c> that reader makes of one. A marker is random per use, so no stored text can pass for it.
/// </summary>
internal sealed class BsonDecimalMask
{
    private const int PatternLength = 14;
    private const int IndexLength = 5;
    private const string Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private readonly string _marker = RandomNumberGenerator.GetString(Alphabet, PatternLength - IndexLength);
    private readonly List<Decimal128Bits> _values = [];

    /// <summary>The BSON that <c>BsonDataReader</c> should read instead of the original (null when it has no decimal128).</summary>
    public byte[]? Bson { get; private set; }

    /// <summary>Whether any value was added.</summary>
    public bool IsEmpty => _values.Count == 0;

    /// <summary>The pattern of the stand-in for <paramref name="value"/>, recorded in order.</summary>
    public string Add(Decimal128Bits value)
    {
        var index = _values.Count;
        if (index >= 1 << (6 * IndexLength))
            throw new ArgumentException("A document holds too many numbers that need decimal128.");
        _values.Add(value);
        Span<char> pattern = stackalloc char[PatternLength];
        _marker.CopyTo(pattern);
        for (var i = 0; i < IndexLength; i++)
            pattern[PatternLength - 1 - i] = Alphabet[(index >> (6 * i)) & 63];
        return new string(pattern);
    }

    /// <summary>The value whose stand-in <c>BsonDataReader</c> read as <paramref name="text"/> (<c>/pattern/</c>).</summary>
    public bool TryGet(string text, out Decimal128Bits value)
    {
        value = default;
        if (text.Length != PatternLength + 2 || text[0] != '/' || text[^1] != '/'
            || !text.AsSpan(1, _marker.Length).SequenceEqual(_marker))
            return false;
        var index = 0;
        for (var i = 0; i < IndexLength; i++)
        {
            var digit = Alphabet.IndexOf(text[PatternLength - i], StringComparison.Ordinal);
            if (digit < 0)
                return false;
            index |= digit << (6 * i);
        }
        if (index >= _values.Count)
            return false;
        value = _values[index];
        return true;
    }

    /// <summary>
    /// A mask whose <see cref="Bson"/> is <paramref name="bson"/> with each decimal128 as its stand-in; null when it
    /// has none, or its structure cannot be walked (then the reader meets the original, as before).
    /// </summary>
    public static BsonDecimalMask? Mask(ReadOnlySpan<byte> bson)
    {
        if (bson.IndexOf(BsonTypes.Decimal128) < 0)
            return null;
        var found = new List<int>();
        if (!Walk(bson, 0, BsonTypes.Decimal128, found, 0) || found.Count == 0)
            return null;
        var mask = new BsonDecimalMask();
        var copy = bson.ToArray();
        foreach (var at in found)
        {
            var valueAt = ValueAt(copy, at);
            var pattern = mask.Add(Decimal128Bits.Read(copy.AsSpan(valueAt, 16)));
            copy[at] = 0x0B;
            Encoding.ASCII.GetBytes(pattern, copy.AsSpan(valueAt, PatternLength));
            copy[valueAt + PatternLength] = 0;
            copy[valueAt + PatternLength + 1] = 0;
        }
        mask.Bson = copy;
        return mask;
    }

    /// <summary>Turns this mask's stand-ins in <paramref name="bson"/> (written by <see cref="CheckedBsonWriter"/>) into decimal128.</summary>
    public void Unmask(Span<byte> bson)
    {
        var found = new List<int>();
        if (!Walk(bson, 0, 0x0B, found, 0))
            throw new InvalidOperationException("The BSON just written cannot be walked.");
        foreach (var at in found)
        {
            var valueAt = ValueAt(bson, at);
            if (bson.Length - valueAt < 16 || bson[valueAt + PatternLength] != 0 || bson[valueAt + PatternLength + 1] != 0
                || !TryGet("/" + Encoding.ASCII.GetString(bson.Slice(valueAt, PatternLength)) + "/", out var value))
                continue;
            bson[at] = BsonTypes.Decimal128;
            value.WriteTo(bson.Slice(valueAt, 16));
        }
    }

    private static int ValueAt(ReadOnlySpan<byte> bson, int at) => at + 1 + bson[(at + 1)..].IndexOf((byte)0) + 1;

    /// <summary>Adds where each element of <paramref name="type"/> starts, in document order; false when the structure is not sound.</summary>
    private static bool Walk(ReadOnlySpan<byte> bson, int start, byte type, List<int> found, int depth)
    {
        if (depth > DocumentContent.MaxDepth + 8 || bson.Length - start < 5)
            return false;
        var length = BinaryPrimitives.ReadInt32LittleEndian(bson[start..]);
        if (length < 5 || length > bson.Length - start)
            return false;
        var end = start + length - 1;
        var at = start + 4;
        while (at < end)
        {
            var nameEnd = bson[(at + 1)..end].IndexOf((byte)0);
            if (nameEnd < 0)
                return false;
            var valueAt = at + 1 + nameEnd + 1;
            var size = Size(bson[at], bson[valueAt..end]);
            if (size < 0)
                return false;
            if (bson[at] == type)
                found.Add(at);
            if (bson[at] is 0x03 or 0x04 && !Walk(bson[..(valueAt + size)], valueAt, type, found, depth + 1))
                return false;
            at = valueAt + size;
        }
        return at == end && bson[end] == 0;
    }

    private static int Size(byte type, ReadOnlySpan<byte> rest)
    {
        int size;
        switch (type)
        {
            case 0x06 or 0x0A or 0x7F or 0xFF: return 0;
            case 0x08: size = 1; break;
            case 0x10: size = 4; break;
            case 0x01 or 0x09 or 0x11 or 0x12: size = 8; break;
            case 0x07: size = 12; break;
            case 0x13: size = 16; break;
            case 0x02 or 0x0D or 0x0E: size = rest.Length >= 4 ? 4 + BinaryPrimitives.ReadInt32LittleEndian(rest) : -1; break;
            case 0x0C: size = rest.Length >= 4 ? 4 + BinaryPrimitives.ReadInt32LittleEndian(rest) + 12 : -1; break;
            case 0x05: size = rest.Length >= 4 ? 5 + BinaryPrimitives.ReadInt32LittleEndian(rest) : -1; break;
            case 0x03 or 0x04 or 0x0F: size = rest.Length >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(rest) : -1; break;
            case 0x0B:
                var first = rest.IndexOf((byte)0);
                var second = first < 0 ? -1 : rest[(first + 1)..].IndexOf((byte)0);
                size = second < 0 ? -1 : first + second + 2;
                break;
            default: return -1;
        }
        return size < 0 || size > rest.Length ? -1 : size;
    }
}
