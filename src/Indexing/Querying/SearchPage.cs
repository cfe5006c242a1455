using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Querying;

/// <summary>What the index answers for one page: the hits' document versions (key and indexed etag), the total, and where the page ended.</summary>
internal sealed class SearchPage(int capacity)
{
    public List<KnownVersion> Versions { get; } = new(capacity);

    /// <summary>Each hit's doc id in the searcher's reader, in the order of <see cref="Versions"/>: what a map/reduce reads its results by.</summary>
    public List<int> Docs { get; } = new(capacity);

    /// <summary>Each hit's relevance, in the order of <see cref="Versions"/>; null when the query was not scored.</summary>
    public List<float>? Scores { get; init; }

    /// <summary>Every match of the query (not only those past a continuation point).</summary>
    public int Total { get; set; }

    /// <summary>Whether there are matches after this page.</summary>
    public bool HasMore { get; set; }

    /// <summary>The page's last hit, for a continuation; null when the page is empty.</summary>
    public PageAfter? Last { get; set; }
}
