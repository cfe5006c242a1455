namespace RavenLite.Client;

/// <summary>What a query's last page said about the whole result: filled in when the query runs.</summary>
public sealed class QueryStatistics
{
    /// <summary>The index that answered.</summary>
    public string IndexName { get; internal set; } = "";

    /// <summary>How many documents match in all.</summary>
    public int TotalResults { get; internal set; }

    /// <summary>Hits whose document was deleted between indexing and loading (left out of the results).</summary>
    public int SkippedResults { get; internal set; }

    /// <summary>Whether the index had not yet caught up with every write when it answered.</summary>
    public bool IsStale { get; internal set; }

    /// <summary>The etag up to which the index had indexed.</summary>
    public long IndexEtag { get; internal set; }

    /// <summary>When the index last committed; null before its first batch.</summary>
    public DateTimeOffset? IndexTimestamp { get; internal set; }

    /// <summary>The page size the index applied (a page size over the maximum is cut to it).</summary>
    public int PageSize { get; internal set; }

    /// <summary>
    /// Where the next page starts: pass it to <see cref="RavenQuery{T}.StartAfter"/> with the same query and order;
    /// null when the last page has been read.
    /// </summary>
    public string? Continuation { get; internal set; }

    private Dictionary<string, float>? _scores;

    /// <summary>
    /// Each result's relevance by document id when the query was ordered by score (<c>OrderByScore</c>); higher is more
    /// relevant, comparable only within the query. Empty otherwise.
    /// </summary>
    public IReadOnlyDictionary<string, float> Scores => _scores ?? (IReadOnlyDictionary<string, float>)System.Collections.Frozen.FrozenDictionary<string, float>.Empty;

    internal void AddScore(string documentId, float score) => (_scores ??= new(DocumentKeyComparer.Instance))[documentId] = score;
}
