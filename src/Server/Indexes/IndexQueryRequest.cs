using System.Globalization;
using RavenLite.Indexing;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;

namespace RavenLite.Server.Indexes;

/// <summary>
/// What <c>GET /indexes/{name}?query=&amp;start=&amp;pageSize=&amp;sort=&amp;after=&amp;waitForNonStaleResults=&amp;timeout=&amp;include=&amp;fetch=&amp;aggregate=&amp;facet=&amp;highlight=</c>
/// asks for (<c>sort=score</c> first: by relevance), read from the query string with a 400 for every bad value.
/// </summary>
/// <param name="Query">
/// The query for the database, with its wait for non-stale results (<c>waitForNonStaleResults</c>, <c>timeout</c>),
/// which <see cref="Database.DocumentDatabase.QueryAsync"/> awaits without holding a thread.
/// </param>
/// <param name="Shape">The <c>include=</c> and <c>fetch=</c> paths: what the answer holds besides whole documents.</param>
internal sealed record IndexQueryRequest(IndexQuery Query, QueryResultShape Shape)
{
    /// <summary>The longest <c>timeout</c> a request may give.</summary>
    public static readonly TimeSpan MaxTimeout = TimeSpan.FromMinutes(5);

    /// <summary>Reads the query string; throws a 400 <see cref="RequestException"/> naming the first bad parameter.</summary>
    public static IndexQueryRequest Parse(HttpRequest request)
    {
        var start = QueryParameters.GetNonNegativeInt(request, "start", 0);
        var after = QueryParameters.GetString(request, "after");
        if (!string.IsNullOrEmpty(after) && start != 0)
            throw RequestException.BadRequest("Give either 'start' or 'after', not both: a continuation already says where the page starts.");
        var sort = QueryParameters.GetList(request, "sort");
        var byScore = sort.Length > 0 && sort[0] == ScoreSort;
        if (byScore)
            sort = sort[1..];
        if (sort.Contains(ScoreSort))
            throw RequestException.BadRequest($"sort={ScoreSort} orders by relevance first, so it must be the first 'sort'; sort by a field named score with +score or -score.");
        var query = new IndexQuery
        {
            Query = QueryParameters.GetString(request, "query"),
            Start = start,
            PageSize = QueryParameters.GetNonNegativeInt(request, "pageSize"),
            SortBy = sort.Length == 0 ? null : sort,
            OrderByScore = byScore,
            Highlight = ParseHighlight(request),
            Continuation = string.IsNullOrEmpty(after) ? null : after,
            WaitForNonStaleResults = QueryParameters.GetBoolean(request, "waitForNonStaleResults", false),
            Timeout = ParseTimeout(request),
            Aggregate = QueryParameters.GetString(request, "aggregate"),
            AggregateSum = QueryParameters.GetBoolean(request, "aggregateSum", true),
            Facets = ParseFacets(request),
        };
        return new IndexQueryRequest(query, QueryResultShape.Parse(request));
    }

    /// <summary>The <c>sort</c> value that orders by relevance (most relevant first); a field named so is sorted with <c>+score</c>.</summary>
    public const string ScoreSort = "score";

    /// <summary>
    /// <c>highlight=Body&amp;highlight=Title&amp;highlightFragments=3&amp;highlightFragmentLength=150&amp;highlightPreTag=&lt;b&gt;&amp;highlightPostTag=&lt;/b&gt;</c>;
    /// null without <c>highlight</c>.
    /// </summary>
    private static HighlightOptions? ParseHighlight(HttpRequest request)
    {
        var fields = QueryParameters.GetList(request, "highlight");
        if (fields.Length == 0)
            return null;
        var defaults = new HighlightOptions { Fields = fields };
        return new HighlightOptions
        {
            Fields = fields,
            FragmentCount = QueryParameters.GetNonNegativeInt(request, "highlightFragments", defaults.FragmentCount),
            FragmentLength = QueryParameters.GetNonNegativeInt(request, "highlightFragmentLength", defaults.FragmentLength),
            PreTag = QueryParameters.GetString(request, "highlightPreTag") ?? defaults.PreTag,
            PostTag = QueryParameters.GetString(request, "highlightPostTag") ?? defaults.PostTag,
        };
    }

    /// <summary>
    /// <c>facet</c>, repeatable, one facet each (not split at commas: ranges hold them), in <see cref="FacetRequest.Parse"/>'s
    /// form: <c>Brand</c>, <c>Brand(top=5,order=value)</c>, <c>Price@dec([0 TO 100},[100 TO *])</c>. Null when absent.
    /// </summary>
    private static List<FacetRequest>? ParseFacets(HttpRequest request)
    {
        var values = request.Query["facet"];
        if (values.Count == 0)
            return null;
        var facets = new List<FacetRequest>(values.Count);
        foreach (var value in values)
        {
            try
            {
                facets.Add(FacetRequest.Parse(value ?? ""));
            }
            catch (ArgumentException ex)
            {
                throw RequestException.BadRequest($"Query parameter 'facet': {ArgumentMessage.Of(ex)}");
            }
        }
        return facets;
    }

    /// <summary>
    /// <c>timeout</c>: seconds (<c>5</c>, <c>0.5</c>) or a TimeSpan (<c>00:00:05</c>, <c>00:01:30</c>); positive and
    /// at most <see cref="MaxTimeout"/>. Null when absent.
    /// </summary>
    private static TimeSpan? ParseTimeout(HttpRequest request)
    {
        var text = QueryParameters.GetString(request, "timeout")?.Trim();
        if (string.IsNullOrEmpty(text))
            return null;
        TimeSpan timeout;
        // A bare number is seconds; TimeSpan.Parse would read "5" as five days.
        if (double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var seconds))
            timeout = seconds <= MaxTimeout.TotalSeconds ? TimeSpan.FromSeconds(seconds) : TimeSpan.MaxValue;
        else if (!text.Contains(':', StringComparison.Ordinal) || !TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out timeout))
            throw RequestException.BadRequest(
                $"Query parameter 'timeout' must be seconds (5, 0.5) or a time span (00:00:05); got '{text}'.");
        if (timeout <= TimeSpan.Zero || timeout > MaxTimeout)
            throw RequestException.BadRequest(
                $"Query parameter 'timeout' must be more than 0 and at most {MaxTimeout.TotalSeconds:0} seconds; got '{text}'.");
        return timeout;
    }
}
