using System.Diagnostics;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>GET /indexes/{name}/morelikethis/{id}?fields=&amp;minTermFreq=&amp;minDocFreq=&amp;maxQueryTerms=&amp;start=&amp;pageSize=</c>:
/// the documents of the index most like document <c>id</c>, most similar first, in the shape of a query response
/// (each result's score in its metadata as <c>@index-score</c>); 404 <c>document-not-found</c> when there is no such document.
/// Both the index name and the id may contain <c>/</c>: the path splits at the first <c>/morelikethis/</c>.
/// </summary>
internal static class MoreLikeThisRoute
{
    /// <summary>The path segment that turns <c>GET /indexes/...</c> into more like this.</summary>
    public const string Segment = "/morelikethis/";

    public static async Task RunAsync(HttpContext context, DocumentDatabase database, string indexName, string id)
    {
        var started = Stopwatch.GetTimestamp();
        if (string.IsNullOrEmpty(id))
            throw RequestException.BadRequest("A document id is required: /indexes/{name}/morelikethis/{id}.");
        var request = context.Request;
        var defaults = new MoreLikeThisQuery();
        var fields = QueryParameters.GetList(request, "fields");
        var query = new MoreLikeThisQuery
        {
            Fields = fields.Length == 0 ? null : fields,
            MinTermFrequency = QueryParameters.GetNonNegativeInt(request, "minTermFreq", defaults.MinTermFrequency),
            MinDocFrequency = QueryParameters.GetNonNegativeInt(request, "minDocFreq", defaults.MinDocFrequency),
            MaxQueryTerms = QueryParameters.GetNonNegativeInt(request, "maxQueryTerms", defaults.MaxQueryTerms),
            Start = QueryParameters.GetNonNegativeInt(request, "start", 0),
            PageSize = QueryParameters.GetNonNegativeInt(request, "pageSize"),
        };
        var result = database.MoreLikeThis(indexName, id, query, context.RequestAborted) ?? throw RequestException.DocumentNotFound(id);
        var shape = new IndexQueryRequest(new IndexQuery { Start = query.Start, PageSize = query.PageSize, OrderByScore = true }, QueryResultShape.None);
        await QueryResultWriter.WriteAsync(context.Response, result, shape, [], started, -1, context.RequestAborted);
    }
}
