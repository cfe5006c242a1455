using System.Globalization;
using System.Text;
using System.Text.Json;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    public QueryPage Query(string indexName, IndexQuery query) => Query(indexName, query, QueryShape.None);

    public Task<QueryPage> QueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken) =>
        QueryAsync(indexName, query, QueryShape.None, cancellationToken);

    public QueryPage Query(string indexName, IndexQuery query, QueryShape shape) =>
        Run(QueryRequest(indexName, query, shape), root => ParsePage(indexName, root, shape));

    public Task<QueryPage> QueryAsync(string indexName, IndexQuery query, QueryShape shape, CancellationToken cancellationToken) =>
        RunAsync(QueryRequest(indexName, query, shape), root => ParsePage(indexName, root, shape), cancellationToken);

    private static RemoteRequest QueryRequest(string indexName, IndexQuery query, QueryShape shape)
    {
        var url = QueryUrl(indexName, query, shape);
        return new(HttpMethod.Get, url, Body: null, error => RemoteErrors.ToException(error, indexName), CacheKey: "GET " + url);
    }

    private static QueryPage ParsePage(string indexName, JsonElement root, QueryShape shape)
    {
        var results = root.GetProperty("Results");
        var projected = shape.FetchPaths.Count > 0;
        var documents = new StoredDocument[projected ? 0 : results.GetArrayLength()];
        List<float>? scores = null;
        List<IReadOnlyDictionary<string, IReadOnlyList<string>>>? highlights = null;
        var i = 0;
        if (!projected)
        {
            foreach (var element in results.EnumerateArray())
            {
                documents[i++] = RemoteDocuments.Read(element);
                var metadata = element.GetProperty(MetadataNames.Metadata);
                if (metadata.TryGetProperty(MetadataNames.IndexScore, out var score))
                    (scores ??= new(documents.Length)).Add(score.GetSingle());
                if (metadata.TryGetProperty(MetadataNames.Highlights, out var highlighted))
                    (highlights ??= new(documents.Length)).Add(ReadHighlights(highlighted));
            }
        }
        var timestamp = root.GetProperty("IndexTimestamp");
        var continuation = root.GetProperty("Continuation");
        return new QueryPage(
            // The index that answered: a collection query (dynamic/...) names the auto or built-in index it used.
            root.TryGetProperty("IndexName", out var answered) ? answered.GetString()! : indexName,
            documents,
            root.GetProperty("TotalResults").GetInt32(),
            root.GetProperty("SkippedResults").GetInt32(),
            root.GetProperty("IsStale").GetBoolean(),
            long.Parse(root.GetProperty("IndexEtag").GetString()!, CultureInfo.InvariantCulture),
            timestamp.ValueKind == JsonValueKind.Null ? null : timestamp.GetDateTimeOffset(),
            root.GetProperty("PageSize").GetInt32(),
            continuation.ValueKind == JsonValueKind.Null ? null : continuation.GetString())
        {
            Includes = ParseIncludes(root),
            Aggregate = root.TryGetProperty("Aggregate", out var aggregate) ? aggregate.Deserialize<FieldAggregate>() : null,
            Facets = root.TryGetProperty("Facets", out var facets) ? facets.Deserialize<List<FacetResult>>() ?? [] : [],
            Projections = projected ? ParseProjections(results) : [],
            Scores = scores,
            Highlights = highlights,
        };
    }

    private static Dictionary<string, IReadOnlyList<string>> ReadHighlights(JsonElement highlights)
    {
        var fields = new Dictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        foreach (var field in highlights.EnumerateObject())
            fields[field.Name] = [.. field.Value.EnumerateArray().Select(fragment => fragment.GetString()!)];
        return fields;
    }

    public QueryPage? MoreLikeThis(string indexName, string documentId, MoreLikeThisQuery query)
    {
        var url = new StringBuilder("indexes/");
        url.AppendJoin('/', indexName.Split('/').Select(Uri.EscapeDataString)).Append("/morelikethis/");
        url.AppendJoin('/', documentId.Split('/').Select(Uri.EscapeDataString));
        url.Append(CultureInfo.InvariantCulture, $"?minTermFreq={query.MinTermFrequency}&minDocFreq={query.MinDocFrequency}&maxQueryTerms={query.MaxQueryTerms}&start={query.Start}");
        if (query.PageSize is { } pageSize)
            url.Append(CultureInfo.InvariantCulture, $"&pageSize={pageSize}");
        foreach (var field in query.Fields ?? [])
            url.Append("&fields=").Append(Uri.EscapeDataString(field));
        var text = url.ToString();
        try
        {
            return Run(new RemoteRequest(HttpMethod.Get, text, Body: null,
                error => error.Code == ErrorCodes.DocumentNotFound ? new KeyNotFoundException(error.Message) : RemoteErrors.ToException(error, indexName),
                CacheKey: "GET " + text),
                root => ParsePage(indexName, root, QueryShape.None));
        }
        catch (KeyNotFoundException)
        {
            return null;
        }
    }

    /// <summary><c>indexes/{name}?query=...</c>, every part percent-encoded (the name's <c>/</c> kept as separators).</summary>
    private static string QueryUrl(string indexName, IndexQuery query, QueryShape shape)
    {
        var url = new StringBuilder("indexes/");
        url.AppendJoin('/', indexName.Split('/').Select(Uri.EscapeDataString));
        var separator = '?';
        void Add(string name, string value)
        {
            url.Append(separator).Append(name).Append('=').Append(Uri.EscapeDataString(value));
            separator = '&';
        }
        if (!string.IsNullOrEmpty(query.Query))
            Add("query", query.Query);
        if (query.Start != 0)
            Add("start", query.Start.ToString(CultureInfo.InvariantCulture));
        if (query.PageSize is { } pageSize)
            Add("pageSize", pageSize.ToString(CultureInfo.InvariantCulture));
        if (query.OrderByScore)
            Add("sort", "score");
        foreach (var sort in query.SortBy ?? [])
            Add("sort", sort);
        if (query.Highlight is { } highlight)
        {
            foreach (var field in highlight.Fields)
                Add("highlight", field);
            Add("highlightFragments", highlight.FragmentCount.ToString(CultureInfo.InvariantCulture));
            Add("highlightFragmentLength", highlight.FragmentLength.ToString(CultureInfo.InvariantCulture));
            Add("highlightPreTag", highlight.PreTag);
            Add("highlightPostTag", highlight.PostTag);
        }
        if (query.Continuation is not null)
            Add("after", query.Continuation);
        if (query.WaitForNonStaleResults)
            Add("waitForNonStaleResults", "true");
        if (query.Aggregate is not null)
            Add("aggregate", query.Aggregate);
        if (!query.AggregateSum)
            Add("aggregateSum", "false");
        foreach (var facet in query.Facets ?? [])
            Add("facet", facet.ToString());
        if (query.Timeout is { } timeout)
            Add("timeout", timeout.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture));
        foreach (var path in shape.IncludePaths)
            Add("include", path);
        foreach (var path in shape.FetchPaths)
            Add("fetch", path);
        return url.ToString();
    }
}
