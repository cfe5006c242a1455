using RavenLite.Indexing;

namespace RavenLite.Server.Indexes;

/// <summary>
/// Everything a query response's body depends on: the index and the <see cref="IndexVersion"/> that answered (build,
/// indexed etag, last commit, database etag), and the query's parameters as asked (text, start, page size, sort,
/// continuation, aggregate, facets, scoring, highlighting), with the include and fetch paths (<see cref="QueryResultShape.KeyText"/>). The wait for non-stale
/// results is not part of it: it changes when the answer comes, not what it is.
/// </summary>
internal readonly record struct QueryResponseKey(
    string IndexName, IndexVersion Version, string? Query, int Start, int? PageSize, string Sort, string? Continuation, string Shape = "", string? Aggregate = null,
    bool OrderByScore = false, string? Highlight = null, string Facets = "")
{
    /// <summary>The key of <paramref name="query"/> on index <paramref name="indexName"/> at <paramref name="version"/>.</summary>
    public static QueryResponseKey For(string indexName, IndexVersion version, IndexQuery query) =>
        For(indexName, version, query, QueryResultShape.None);

    /// <summary>The key of <paramref name="query"/> answered in <paramref name="shape"/>.</summary>
    public static QueryResponseKey For(string indexName, IndexVersion version, IndexQuery query, QueryResultShape shape) =>
        new(indexName, version, query.Query, query.Start, query.PageSize, SortText(query.SortBy), query.Continuation, shape.KeyText, query.Aggregate is null ? null : query.Aggregate + (query.AggregateSum ? "" : "\nnosum"),
            query.OrderByScore, HighlightText(query.Highlight),
            query.Facets is { Count: > 0 } facets ? string.Concat(facets.Select(facet => facet.ToString()).Select(text => $"{text.Length}:{text}")) : "");

    /// <summary>The highlight options as one text, each part with its length in front.</summary>
    private static string? HighlightText(HighlightOptions? highlight) => highlight is null ? null
        : $"{highlight.FragmentCount}:{highlight.FragmentLength}:{SortText(highlight.Fields)}|{highlight.PreTag.Length}:{highlight.PreTag}{highlight.PostTag.Length}:{highlight.PostTag}";

    /// <summary>The sort fields, each with its length in front, so no two different lists give the same text.</summary>
    private static string SortText(IReadOnlyList<string>? sort)
    {
        if (sort is null || sort.Count == 0)
            return "";
        return string.Concat(sort.Select(field => $"{field.Length}:{field}"));
    }
}
