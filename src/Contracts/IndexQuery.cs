namespace RavenLite;

/// <summary>A query of one index: what to match, which page, in what order, and whether to wait for the index.</summary>
public sealed class IndexQuery
{
    /// <summary>
    /// The query in Lucene syntax (<c>Tag:Item</c>, <c>Price:[10 TO 20] AND -Tag:Old</c>); null or empty
    /// matches every document of the index. See <c>docs/indexing.md</c>.
    /// </summary>
    public string? Query { get; init; }

    /// <summary>How many matches to skip. Not negative; must be 0 when <see cref="Continuation"/> is given.</summary>
    public int Start { get; init; }

    /// <summary>
    /// How many documents to return; null for the default (128). More than the maximum (1024) is clamped, and
    /// the result's <c>PageSizeClamped</c> says so. Not negative.
    /// </summary>
    public int? PageSize { get; init; }

    /// <summary>
    /// Sortable fields to order by, most significant first; <c>-Price</c> for descending. Null or empty: index
    /// order (the order the documents were last indexed in). Ties are broken by that order.
    /// </summary>
    public IReadOnlyList<string>? SortBy { get; init; }

    /// <summary>
    /// Order by relevance: every match is scored (BM25, with <c>^boost</c> in the query honoured) and the most relevant
    /// comes first; <see cref="SortBy"/>, when given, then breaks ties, and index order breaks the rest. Each result's
    /// score is in the result (and in its metadata as <c>@index-score</c> over HTTP). False (the default): matches are
    /// not scored at all. A scored query pages with <see cref="Start"/>; it takes no <see cref="Continuation"/>.
    /// </summary>
    public bool OrderByScore { get; init; }

    /// <summary>Highlighted fragments of full-text fields to return with each result; null: none.</summary>
    public HighlightOptions? Highlight { get; init; }

    /// <summary>Wait until the index has caught up with every write made before the query, up to <see cref="Timeout"/>.</summary>
    public bool WaitForNonStaleResults { get; init; }

    /// <summary>How long <see cref="WaitForNonStaleResults"/> waits; null for the default (15 s).</summary>
    public TimeSpan? Timeout { get; init; }

    /// <summary>
    /// A result's <c>Continuation</c> from the previous page of the same query: the page after it,
    /// found by seeking past that page's last hit rather than by skipping, so deep pages cost what the first does.
    /// </summary>
    public string? Continuation { get; init; }

    /// <summary>
    /// A typed field's kind to aggregate over every match (<c>Total@dec</c>, <c>Price@num</c>, <c>PlacedAt@time</c>,
    /// <c>Lines@count</c>): the count of matches with a value, its sum, minimum and maximum, from the index's doc
    /// values (the first value of each document), without loading documents. Null: none.
    /// </summary>
    public string? Aggregate { get; init; }

    /// <summary>
    /// Whether <see cref="Aggregate"/> adds the values up (default): without the sum, an exact kind's minimum and
    /// maximum come from the least and greatest distinct values present, and no value between them is decoded.
    /// </summary>
    public bool AggregateSum { get; init; } = true;

    /// <summary>
    /// Facets to count over every match (<see cref="FacetRequest"/>): per distinct value of a typed field's kind, or per
    /// range, from the index's doc values, without loading documents; the counts come back in the result's
    /// <c>Facets</c>, in this order. Null or empty: none.
    /// </summary>
    public IReadOnlyList<FacetRequest>? Facets { get; init; }
}
