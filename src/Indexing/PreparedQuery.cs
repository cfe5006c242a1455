namespace RavenLite.Indexing;

/// <summary>
/// A query resolved to the index that answers it, after any wait for non-stale results it asked for, not yet run.
/// Its <see cref="Version"/> says which answer running it now would give, so a caller that keeps answers by version
/// (a server's response cache) looks there first and runs the query only when it holds no answer.
/// </summary>
public sealed class PreparedQuery
{
    internal PreparedQuery(string indexName, IndexQuery query, int pageSize, bool pageSizeClamped, long started, long waitTicks, IndexVersion version)
    {
        IndexName = indexName;
        Query = query;
        PageSize = pageSize;
        PageSizeClamped = pageSizeClamped;
        Started = started;
        WaitTicks = waitTicks;
        Version = version;
        MayBeKept = !version.IsStale;
    }

    /// <summary>The index that answers: the one asked for, or the index a <c>dynamic/</c> name resolved to.</summary>
    public string IndexName { get; }

    /// <summary>
    /// The version of that index once the wait (if any) was over. Two queries with the same parameters answered at
    /// the same version give the same page, so an answer kept under it is still the answer while it holds.
    /// </summary>
    public IndexVersion Version { get; }

    /// <summary>
    /// Whether an answer kept under <see cref="Version"/> may be served for this query: false when the index is stale
    /// (its answer is nobody's to keep), or when the database holds documents that expire (time passing, which changes
    /// no version, changes the answer).
    /// </summary>
    public bool MayBeKept { get; private init; }

    /// <summary>The query as the index runs it (a <c>dynamic/</c> query rewritten for the index it resolved to).</summary>
    internal IndexQuery Query { get; }

    internal int PageSize { get; }

    internal bool PageSizeClamped { get; }

    /// <summary>When preparing began (a <see cref="System.Diagnostics.Stopwatch"/> timestamp): the query's timings count from it.</summary>
    internal long Started { get; }

    internal long WaitTicks { get; }

    /// <summary>This query, with answers kept under its version not to be served (the database has seen documents that expire).</summary>
    internal PreparedQuery NotKept() =>
        new(IndexName, Query, PageSize, PageSizeClamped, Started, WaitTicks, Version) { MayBeKept = false };
}
