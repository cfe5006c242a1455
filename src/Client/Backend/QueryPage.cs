namespace RavenLite.Client.Backend;

/// <summary>A page of an index query as a backend returns it.</summary>
public sealed record QueryPage(
    string IndexName,
    IReadOnlyList<StoredDocument> Results,
    int TotalResults,
    int SkippedResults,
    bool IsStale,
    long IndexEtag,
    DateTimeOffset? IndexTimestamp,
    int PageSize,
    string? Continuation)
{
    /// <summary>The documents the results refer to at the <see cref="QueryShape.IncludePaths"/>, each once; none without include paths.</summary>
    public IReadOnlyList<StoredDocument> Includes { get; init; } = [];

    /// <summary>
    /// With <see cref="QueryShape.FetchPaths"/>: each result's fetched fields as one UTF-8 JSON object (a member per path,
    /// named by the path), in result order, and <see cref="Results"/> is empty. Otherwise empty.
    /// </summary>
    public IReadOnlyList<ReadOnlyMemory<byte>> Projections { get; init; } = [];

    /// <summary>The aggregate the query asked for (<see cref="IndexQuery.Aggregate"/>); null when none.</summary>
    public FieldAggregate? Aggregate { get; init; }

    /// <summary>Each result's relevance, in result order, when the query was ordered by score; null otherwise.</summary>
    public IReadOnlyList<float>? Scores { get; init; }

    /// <summary>Each result's highlighted fragments (field name to fragments), in result order, when asked for; null otherwise.</summary>
    public IReadOnlyList<IReadOnlyDictionary<string, IReadOnlyList<string>>>? Highlights { get; init; }

    /// <summary>The counts of each facet the query asked for (<see cref="IndexQuery.Facets"/>), in order; empty when none.</summary>
    public IReadOnlyList<FacetResult> Facets { get; init; } = [];
}
