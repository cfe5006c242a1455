using System.Text;
using Lucene.Net.Util;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The Lucene fields every document of every index carries besides the definition's own, and the limits on
/// terms and sort values. Internal names start with '@', which a definition's field names cannot.
/// </summary>
internal static class IndexFields
{
    /// <summary>
    /// The document key: indexed lower-cased (keys are case-insensitive) as the term updates and deletes name, and as
    /// binary DocValues with its original casing, which queries read per hit.
    /// </summary>
    public const string Key = "@key";

    /// <summary>Numeric DocValues: the etag of the document version indexed; the tie-break of every sort.</summary>
    public const string Etag = "@etag";

    /// <summary>Exact terms are cut to this many bytes of UTF-8 (Lucene refuses terms over 32,766).</summary>
    public const int MaxTermBytes = 480;

    /// <summary>String sort values are cut to this many bytes of UTF-8.</summary>
    public const int MaxSortBytes = 512;

    public static string KeyTerm(string key) => key.ToLowerInvariant();

    /// <summary>The term an exact value is indexed (and queried) as.</summary>
    public static string ExactTerm(string value) => Cut(value, MaxTermBytes);

    public static BytesRef SortValue(string value) => new(Encoding.UTF8.GetBytes(Cut(value, MaxSortBytes)));

    /// <summary>Cuts <paramref name="value"/> to at most <paramref name="maxBytes"/> of UTF-8, at a character boundary.</summary>
    private static string Cut(string value, int maxBytes)
    {
        if (value.Length * 3 <= maxBytes || Encoding.UTF8.GetByteCount(value) <= maxBytes)
            return value;
        var bytes = 0;
        var at = 0;
        foreach (var rune in value.EnumerateRunes())
        {
            if (bytes + rune.Utf8SequenceLength > maxBytes)
                break;
            bytes += rune.Utf8SequenceLength;
            at += rune.Utf16SequenceLength;
        }
        return value[..at];
    }
}
