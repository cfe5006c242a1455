using RavenLite.Storage.Documents;

namespace RavenLite.Indexing;

/// <summary>A page of query results, and everything needed to know what it is a page of.</summary>
public sealed record QueryResult
{
    /// <summary>The index that answered.</summary>
    public required string IndexName { get; init; }

    /// <summary>The page of documents, in order, loaded in one storage read transaction through the document cache.</summary>
    public required IReadOnlyList<Document> Results { get; init; }

    /// <summary>How many documents match in all.</summary>
    public required int TotalResults { get; init; }

    /// <summary>Hits of this page whose document was deleted between indexing and loading; they are not in <see cref="Results"/>.</summary>
    public required int SkippedResults { get; init; }

    /// <summary>The start used (0 when a continuation was given).</summary>
    public required int Start { get; init; }

    /// <summary>The page size used: the one asked for, the default, or the maximum when more was asked for.</summary>
    public required int PageSize { get; init; }

    /// <summary>Whether the page size asked for was over the maximum and was cut to <see cref="PageSize"/>.</summary>
    public required bool PageSizeClamped { get; init; }

    /// <summary>Whether the index had not yet caught up with every write when the query ran.</summary>
    public required bool IsStale { get; init; }

    /// <summary>The etag up to which the index had indexed when it answered.</summary>
    public required long IndexEtag { get; init; }

    /// <summary>When the index last committed a batch; null before its first.</summary>
    public required DateTimeOffset? IndexTimestamp { get; init; }

    /// <summary>The database's last etag, read just before the index answered.</summary>
    public required long DatabaseEtag { get; init; }

    /// <summary>
    /// The version of the index that answered (its build, how far it had indexed, its last commit, and the database's
    /// last etag): two queries with the same parameters answered at the same version give the same page, so it is what
    /// a server tags and caches the answer by.
    /// </summary>
    public required IndexVersion Version { get; init; }

    /// <summary>
    /// A token for the next page (pass it as <see cref="IndexQuery.Continuation"/> with the same query and sort);
    /// null when this page is the last.
    /// </summary>
    public required string? Continuation { get; init; }

    /// <summary>Where the query's time went: parse, search, documents from the cache and from storage, total.</summary>
    public QueryTimings Timings { get; init; }

    /// <summary>The aggregate <see cref="IndexQuery.Aggregate"/> asked for, over every match; null when none was asked.</summary>
    public FieldAggregate? Aggregate { get; init; }

    /// <summary>
    /// Each result's relevance, in the order of <see cref="Results"/> (BM25; higher is more relevant, comparable only
    /// within one query); null when the query was not ordered by score (<see cref="IndexQuery.OrderByScore"/>).
    /// </summary>
    public IReadOnlyList<float>? Scores { get; init; }

    /// <summary>
    /// Each result's highlighted fragments, in the order of <see cref="Results"/>: field name to fragments, best first
    /// (a field with no matched term is absent); null when <see cref="IndexQuery.Highlight"/> was not asked for.
    /// </summary>
    public IReadOnlyList<IReadOnlyDictionary<string, IReadOnlyList<string>>>? Highlights { get; init; }

    /// <summary>The counts of each of <see cref="IndexQuery.Facets"/>, in order; empty when none was asked.</summary>
    public IReadOnlyList<FacetResult> Facets { get; init; } = [];

    /// <summary>
    /// The documents the results refer to at the include paths the query was run with (each once, none of them among
    /// <see cref="Results"/>), read right after the page; empty when no include path was given.
    /// </summary>
    public IReadOnlyList<Document> Includes { get; init; } = [];
}
