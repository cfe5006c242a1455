using System.Globalization;
using RavenLite.Indexing;
using RavenLite.Server.Http;
using RavenLite.Server.Json;

namespace RavenLite.Server.Indexes;

/// <summary>
/// Streams a query response: <c>{"Results":[...],"TotalResults","SkippedResults","IsStale","IndexEtag",
/// "IndexTimestamp","Start","PageSize",["RequestedPageSize",]"Continuation"}</c>. The results are the documents
/// with their <c>@metadata</c>, copied from the cache's UTF-8 JSON by <see cref="DocumentJsonWriter"/> and flushed
/// as the buffer fills: no parsing, and the page is never built in memory as one body.
/// </summary>
internal static class QueryResultWriter
{
    /// <summary>Writes <paramref name="result"/>; <c>RequestedPageSize</c> appears only when the page size was clamped.</summary>
    public static async Task WriteAsync(HttpResponse response, QueryResult result, IndexQuery query, CancellationToken cancellationToken)
    {
        response.ContentType = JsonOutput.ContentType;
        using var writer = new DocumentJsonWriter(response.BodyWriter);
        writer.Raw("{\"Results\":["u8);
        await writer.DocumentsAsync(result.Results, cancellationToken);
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
        writer.Raw("}"u8);
        await writer.FlushAsync(cancellationToken);
    }
}
