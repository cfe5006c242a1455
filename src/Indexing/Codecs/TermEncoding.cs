using System.Text;

namespace RavenLite.Indexing.Codecs;

/// <summary>
/// The byte form of a term inside a postings key: <c>field ordinal (1) | term | doc id (8, big-endian)</c>.
/// A string term is its UTF-8 with 0x00 written as 0x00 0xFF, then the terminator 0x00 0x00, so terms keep
/// code-point order, no term's key is a prefix of another's, and a term's postings are one prefix scan.
/// A numeric term is its 8-byte <see cref="SortableNumbers"/> form. A string whose escaped form is longer
/// than <see cref="MaxEscapedStringBytes"/> is cut there (at a character boundary): storage keys are limited.
/// </summary>
internal static class TermEncoding
{
    /// <summary>Keeps a postings key (1 + term + 2 + 8) well under LMDB's 511-byte key limit.</summary>
    public const int MaxEscapedStringBytes = 480;

    /// <summary>The string term's bytes, terminator included.</summary>
    public static byte[] StringTerm(string value)
    {
        var escaped = Escape(value);
        var term = new byte[escaped.Length + 2];
        escaped.CopyTo(term, 0);
        return term;
    }

    /// <summary>The bytes every string term starting with <paramref name="prefix"/> starts with.</summary>
    public static byte[] StringPrefix(string prefix) => Escape(prefix);

    public static byte[] LongTerm(long value)
    {
        var term = new byte[SortableNumbers.Length];
        SortableNumbers.WriteInt64(value, term);
        return term;
    }

    public static byte[] DoubleTerm(double value)
    {
        var term = new byte[SortableNumbers.Length];
        SortableNumbers.WriteDouble(value, term);
        return term;
    }

    private static byte[] Escape(string value)
    {
        var utf8 = Encoding.UTF8.GetBytes(value);
        var nulls = utf8.AsSpan().Count((byte)0);
        var length = CutAt(utf8, MaxEscapedStringBytes);
        if (nulls == 0 && length == utf8.Length)
            return utf8;
        var escaped = new List<byte>(length + nulls);
        for (var i = 0; i < length; i++)
        {
            escaped.Add(utf8[i]);
            if (utf8[i] == 0)
                escaped.Add(0xFF);
        }
        return [.. escaped];
    }

    /// <summary>How many bytes of <paramref name="utf8"/> fit in <paramref name="limit"/> escaped bytes, ending on a character boundary.</summary>
    private static int CutAt(byte[] utf8, int limit)
    {
        var escapedLength = 0;
        var lastBoundary = 0;
        for (var i = 0; i < utf8.Length; i++)
        {
            if ((utf8[i] & 0xC0) != 0x80)
                lastBoundary = i; // a character starts here
            escapedLength += utf8[i] == 0 ? 2 : 1;
            if (escapedLength > limit)
                return lastBoundary;
        }
        return utf8.Length;
    }
}
