using System.Buffers;
using System.Diagnostics;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>GET /indexes/{name}?query=&amp;start=&amp;pageSize=&amp;sort=&amp;after=&amp;waitForNonStaleResults=&amp;timeout=&amp;include=&amp;fetch=</c>:
/// a page of the documents an index matches, with an <c>ETag</c>, <c>If-None-Match</c> support, timings (a
/// <c>Timings</c> member and a <c>Server-Timing</c> header), and the <see cref="QueryResponseCache"/> in front.
/// </summary>
internal static partial class IndexQueryRoute
{
    /// <summary>
    /// The query prepared (<see cref="DocumentDatabase.PrepareQueryAsync"/>: the index that answers, after any wait for
    /// non-stale results, holding no thread, and its version); the response cache asked under that version, the
    /// parameters and the include and fetch paths; a kept body served as it is while its includes are current.
    /// Otherwise one query call (<see cref="DocumentDatabase.RunQuery"/>)
    /// returns the page and its includes; the ETag comes from the version that answered and the included documents'
    /// etags, and the page is written, and kept when it is not stale. <c>If-None-Match</c> naming the tag gets 304.
    /// </summary>
    public static async Task QueryAsync(HttpContext context, DocumentDatabase database, QueryResponseCache cache, string indexName)
    {
        var started = Stopwatch.GetTimestamp();
        var request = IndexQueryRequest.Parse(context.Request);
        using var deadline = QueryDeadline.Start(context, request);
        try
        {
            await QueryAsync(context, database, cache, indexName, request, started, deadline.Token);
        }
        catch (OperationCanceledException) when (deadline.Refusal() is { } refusal)
        {
            throw refusal;
        }
    }

    private static async Task QueryAsync(HttpContext context, DocumentDatabase database, QueryResponseCache cache, string indexName,
        IndexQueryRequest request, long started, CancellationToken cancellationToken)
    {
        var prepared = await database.PrepareQueryAsync(indexName, request.Query, cancellationToken);
        // Keyed by the name asked for: dynamic/{collection} may be answered by the built-in index with a query of its own.
        if (cache.Enabled && prepared.MayBeKept
            && cache.TryGet(QueryResponseKey.For(indexName, prepared.Version, request.Query, request.Shape), out var kept)
            && IncludesCurrent(database, kept))
        {
            await ServeKeptAsync(context, kept, started);
            return;
        }
        var result = database.RunQuery(prepared, request.Shape.IncludePaths, cancellationToken);
        var key = QueryResponseKey.For(indexName, result.Version, request.Query, request.Shape);
        var cacheable = cache.Enabled && !result.IsStale && prepared.MayBeKept;
        var includes = result.Includes;
        var etag = QueryResultETag.Compute(key, result.PageSize, includes);
        context.Response.Headers.ETag = etag;
        if (ETags.IfNoneMatchHits(context.Request, etag))
        {
            context.Response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }
        var body = await QueryResultWriter.WriteAsync(context.Response, result, request, includes, started,
            cacheable ? cache.MaxBodyBytes : -1, context.RequestAborted);
        if (body is not null)
            cache.Add(key, new QueryResponseEntry(body, etag) { Included = [.. includes.Select(document => (document.Key, document.Etag))] });
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
        // Writes, not Write + Flush: the first write goes straight into the connection's pipe after the headers.
        await response.BodyWriter.WriteAsync(kept.Body, context.RequestAborted);
        await response.BodyWriter.WriteAsync(tail, context.RequestAborted);
    }
}
