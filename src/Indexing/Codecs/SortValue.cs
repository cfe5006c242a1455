using System.Text;

namespace RavenLite.Indexing.Codecs;

/// <summary>
/// A document's value for a sortable field, as bytes whose unsigned order is the sort order: UTF-8 for strings
/// (cut at <see cref="MaxStringBytes"/>), <see cref="SortableNumbers"/> for numbers. A missing value is null
/// and sorts before every value.
/// </summary>
internal static class SortValue
{
    public const int MaxStringBytes = 512;

    public static byte[] String(string value)
    {
        var utf8 = Encoding.UTF8.GetBytes(value);
        if (utf8.Length <= MaxStringBytes)
            return utf8;
        var cut = MaxStringBytes;
        while (cut > 0 && (utf8[cut] & 0xC0) == 0x80)
            cut--;
        return utf8[..cut];
    }

    public static int Compare(byte[]? x, byte[]? y)
    {
        if (x is null)
            return y is null ? 0 : -1;
        return y is null ? 1 : x.AsSpan().SequenceCompareTo(y);
    }
}
