using System.Buffers;
using System.Diagnostics;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>GET /indexes/{name}?query=&amp;start=&amp;pageSize=&amp;sort=&amp;after=&amp;waitForNonStaleResults=&amp;timeout=</c>:
/// a page of the documents an index matches, with an <c>ETag</c>, <c>If-None-Match</c> support, timings (a
/// <c>Timings</c> member and a <c>Server-Timing</c> header), and the <see cref="QueryResponseCache"/> in front.
/// </summary>
internal static class IndexQueryRoute
{
    /// <summary>
    /// Waits for non-stale results when asked (asynchronously, holding no thread); serves the kept response when the
    /// index, the database and the parameters are what they were for it; otherwise runs the query (synchronously: two
    /// read transactions, no write), then answers 304 when <c>If-None-Match</c> names the result's tag, else writes it
    /// and keeps it when it is not stale.
    /// </summary>
    public static async Task QueryAsync(HttpContext context, DocumentDatabase database, QueryResponseCache cache, string indexName)
    {
        var started = Stopwatch.GetTimestamp();
        var request = IndexQueryRequest.Parse(context.Request);
        if (request.WaitForNonStaleResults)
        {
            var timeout = request.Timeout ?? database.Options.DefaultQueryWaitTimeout;
            await database.WaitForNonStaleAsync(indexName, timeout, context.RequestAborted);
        }
        QueryResponseKey? key = null;
        IndexVersion version = default;
        if (cache.Enabled)
        {
            version = database.GetIndexVersion(indexName);
            // A stale index's answer is never kept, so there is nothing to find either.
            if (!version.IsStale)
            {
                key = QueryResponseKey.For(indexName, version, request.Query);
                if (cache.TryGet(key.Value, out var kept))
                {
                    await ServeKeptAsync(context, kept, started);
                    return;
                }
            }
        }
        var result = database.Query(indexName, request.Query);

        var etag = QueryResultETag.Compute(database.GetIndex(result.IndexName), result, request.Query);
        context.Response.Headers.ETag = etag;
        if (ETags.IfNoneMatchHits(context.Request, etag))
        {
            context.Response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }
        // Kept only when the answer is the one the key names: not stale, at the version looked up before the query.
        var keep = key is not null && version.Answered(result) ? cache.MaxBodyBytes : -1;
        var body = await QueryResultWriter.WriteAsync(context.Response, result, request.Query, started, keep, context.RequestAborted);
        if (body is not null && key is { } answered && SameVersion(database, indexName, version))
            cache.Add(answered, new QueryResponseEntry(body, etag));
    }

    /// <summary>Whether the index is still at <paramref name="version"/> (the same build: not redefined or reset meanwhile).</summary>
    private static bool SameVersion(DocumentDatabase database, string indexName, IndexVersion version)
    {
        try
        {
            return database.GetIndexVersion(indexName).Generation == version.Generation;
        }
        catch (IndexNotFoundException)
        {
            return false;
        }
    }

    /// <summary>A kept body with fresh timings: <c>ETag</c> (and 304), <c>Content-Length</c>, one write.</summary>
    private static async Task ServeKeptAsync(HttpContext context, QueryResponseEntry kept, long started)
    {
        var response = context.Response;
        response.Headers.ETag = kept.ETag;
        if (ETags.IfNoneMatchHits(context.Request, kept.ETag))
        {
            response.Headers[ServerTiming.HeaderName] = ServerTiming.Hit(Stopwatch.GetTimestamp() - started);
            response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }
        var total = Stopwatch.GetTimestamp() - started;
        var tail = QueryResultWriter.CachedTail(total);
        response.ContentType = Json.JsonOutput.ContentType;
        response.ContentLength = kept.Body.Length + tail.Length;
        response.Headers[ServerTiming.HeaderName] = ServerTiming.Hit(total);
        response.BodyWriter.Write(kept.Body);
        response.BodyWriter.Write(tail);
        await response.BodyWriter.FlushAsync(context.RequestAborted);
    }
}
