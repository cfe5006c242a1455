using System.Diagnostics;
using System.Globalization;
using RavenLite.Indexing;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Indexes;

/// <summary>
/// Writes a query response: <c>{"Results":[...],"TotalResults","SkippedResults","IsStale","IndexEtag",
/// "IndexTimestamp","Start","PageSize",["RequestedPageSize",]"Continuation","Timings"}</c>. The results are the
/// documents with their <c>@metadata</c>, copied from the cache's UTF-8 JSON by <see cref="DocumentJsonWriter"/>: no
/// parsing (or, with <c>fetch=</c>, their fetched fields, and with <c>include=</c> an <c>Includes</c> section after
/// them: <see cref="QueryResultShape"/>). A body up to <see cref="MaxBufferedBytes"/> is gathered in one pooled buffer and sent in one write with a
/// <c>Content-Length</c> (no per-chunk flushes into the server's pipe); a larger one is streamed in 64 KB blocks.
/// </summary>
internal static class QueryResultWriter
{
    /// <summary>The largest body gathered in memory before it is sent; larger pages are streamed.</summary>
    public const int MaxBufferedBytes = 8 * 1024 * 1024;

    /// <summary>
    /// Writes <paramref name="result"/> (<c>RequestedPageSize</c> appears only when the page size was clamped) with its
    /// timings and a <c>Server-Timing</c> header; <paramref name="started"/> is the request's first timestamp. Returns a
    /// copy of the body without its <c>Timings</c> member when the body was sent in one write and is at most
    /// <paramref name="keepUpTo"/> bytes (for the <see cref="QueryResponseCache"/>), else null.
    /// </summary>
    public static async Task<byte[]?> WriteAsync(HttpResponse response, QueryResult result, IndexQueryRequest request,
        IReadOnlyList<Document> includes, long started, int keepUpTo, CancellationToken cancellationToken)
    {
        var query = request.Query;
        response.ContentType = JsonOutput.ContentType;
        var writeStarted = Stopwatch.GetTimestamp();
        // Only a streamed body (over MaxBufferedBytes) sends its headers before the end: then they hold no write time.
        using var writer = new DocumentJsonWriter(response.BodyWriter, MaxBufferedBytes,
            () => response.Headers[ServerTiming.HeaderName] = ServerTiming.Ran(result.Timings, null, Stopwatch.GetTimestamp() - started));
        writer.Raw("{\"Results\":["u8);
        await request.Shape.WriteResultsAsync(writer, result, includes, cancellationToken);
        writer.Raw("],\"TotalResults\":"u8);
        writer.Number(result.TotalResults);
        writer.Raw(",\"SkippedResults\":"u8);
        writer.Number(result.SkippedResults);
        writer.Raw(result.IsStale ? ",\"IsStale\":true"u8 : ",\"IsStale\":false"u8);
        writer.Raw(",\"IndexEtag\":"u8);
        writer.String(ETags.ToText(result.IndexEtag));
        writer.Raw(",\"IndexTimestamp\":"u8);
        if (result.IndexTimestamp is { } timestamp)
            writer.String(timestamp.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture));
        else
            writer.Raw("null"u8);
        writer.Raw(",\"Start\":"u8);
        writer.Number(result.Start);
        writer.Raw(",\"PageSize\":"u8);
        writer.Number(result.PageSize);
        if (result.PageSizeClamped && query.PageSize is { } requested)
        {
            writer.Raw(",\"RequestedPageSize\":"u8);
            writer.Number(requested);
        }
        writer.Raw(",\"Continuation\":"u8);
        if (result.Continuation is { } continuation)
            writer.String(continuation);
        else
            writer.Raw("null"u8);
        writer.Raw(",\"IndexName\":"u8);
        writer.String(result.IndexName);
        if (result.Aggregate is { } aggregate)
        {
            writer.Raw(",\"Aggregate\":"u8);
            writer.Raw(System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(aggregate));
        }
        if (result.Facets.Count > 0)
        {
            writer.Raw(",\"Facets\":"u8);
            writer.Raw(System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(result.Facets));
        }
        var keptLength = writer.HasSent ? -1 : writer.Length;
        var now = Stopwatch.GetTimestamp();
        WriteTimings(writer, result.Timings, now - writeStarted, now - started);
        writer.Raw("}"u8);
        byte[]? kept = null;
        if (!writer.HasSent)
        {
            response.ContentLength = writer.Length;
            response.Headers[ServerTiming.HeaderName] = ServerTiming.Ran(result.Timings, now - writeStarted, now - started);
            if (keptLength <= keepUpTo)
                kept = writer.Copy(keptLength);
        }
        await writer.FlushAsync(cancellationToken);
        return kept;
    }

    /// <summary>The end of a kept body served again: <c>,"Timings":{"Cached":true,"TotalMicroseconds":...}}</c>.</summary>
    public static byte[] CachedTail(long totalTicks) => System.Text.Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture,
        $",\"Timings\":{{\"Cached\":true,\"TotalMicroseconds\":{QueryTimings.ToMicroseconds(totalTicks):0.#}}}}}"));

    /// <summary>
    /// <c>,"Timings":{...}</c>: the query's parts (<see cref="QueryTimings"/>), the time spent writing the body into
    /// memory up to this member, and the request's total up to here, in microseconds.
    /// </summary>
    private static void WriteTimings(DocumentJsonWriter writer, QueryTimings timings, long writeTicks, long totalTicks)
    {
        writer.Raw(",\"Timings\":{\"Cached\":false,\"WaitMicroseconds\":"u8);
        writer.Number(timings.WaitMicroseconds);
        writer.Raw(",\"ParseMicroseconds\":"u8);
        writer.Number(timings.ParseMicroseconds);
        writer.Raw(",\"SearchMicroseconds\":"u8);
        writer.Number(timings.SearchMicroseconds);
        writer.Raw(",\"LoadMicroseconds\":"u8);
        writer.Number(timings.LoadMicroseconds);
        writer.Raw(",\"CachedDocuments\":"u8);
        writer.Number(timings.CachedDocuments);
        writer.Raw(",\"StorageDocuments\":"u8);
        writer.Number(timings.StorageDocuments);
        writer.Raw(",\"StorageMicroseconds\":"u8);
        writer.Number(timings.StorageMicroseconds);
        writer.Raw(",\"QueryMicroseconds\":"u8);
        writer.Number(timings.TotalMicroseconds);
        writer.Raw(",\"WriteMicroseconds\":"u8);
        writer.Number(QueryTimings.ToMicroseconds(writeTicks));
        writer.Raw(",\"TotalMicroseconds\":"u8);
        writer.Number(QueryTimings.ToMicroseconds(totalTicks));
        writer.Raw("}"u8);
    }
}
