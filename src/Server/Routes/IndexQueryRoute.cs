using RavenLite.Database;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>GET /indexes/{name}?query=&amp;start=&amp;pageSize=&amp;sort=&amp;after=&amp;waitForNonStaleResults=&amp;timeout=</c>:
/// a page of the documents an index matches, with an <c>ETag</c> and <c>If-None-Match</c> support.
/// </summary>
internal static class IndexQueryRoute
{
    /// <summary>
    /// Waits for non-stale results when asked (asynchronously, holding no thread), runs the query (synchronously:
    /// two read transactions, no write), then answers 304 when <c>If-None-Match</c> names the result's tag, else streams it.
    /// </summary>
    public static async Task QueryAsync(HttpContext context, DocumentDatabase database, string indexName)
    {
        var request = IndexQueryRequest.Parse(context.Request);
        if (request.WaitForNonStaleResults)
        {
            var timeout = request.Timeout ?? database.Options.DefaultQueryWaitTimeout;
            await database.WaitForNonStaleAsync(indexName, timeout, context.RequestAborted);
        }
        var result = database.Query(indexName, request.Query);

        var etag = QueryResultETag.Compute(database.GetIndex(result.IndexName), result, request.Query);
        context.Response.Headers.ETag = etag;
        if (ETags.IfNoneMatchHits(context.Request, etag))
        {
            context.Response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }
        await QueryResultWriter.WriteAsync(context.Response, result, request.Query, context.RequestAborted);
    }
}
