using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Json;
using RavenLite.Server.Cli;
using RavenLite.Storage.Documents;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>POST /bulk_insert</c>: a stream of JSON lines (the import format), written in batches as the lines arrive:
/// a batch is written once it is whole, then the body is read on, so a fast sender waits for the database.
/// </summary>
internal static class BulkInsertRoute
{
    public const int DefaultBatchSize = 1000;
    public const int MaxBatchSize = 10_000;

    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPost("/bulk_insert", PostAsync)
            .Describe(new RouteDescription("New documents streamed as JSON lines (application/x-ndjson), written in batches as they arrive; each batch is one transaction.", "Documents")
            {
                Parameters = [new ParameterDescription("batchSize", ParameterPlace.Query, "integer", "Documents per transaction (default 1000, at most 10000).")],
                Body = ("string", "JSON lines: {\"key\", \"metadata\", \"data\", optional \"etag\" (0: must not exist)}, one per line, as ravenlite export writes them."),
                Responses = RouteDocs.Statuses((200, "{\"Written\": n}."), (400, "bad-request: a bad line (the error names it); nothing of its batch was written, earlier batches were."),
                    (409, "concurrency-conflict: an etag did not match; nothing of that batch was written, earlier batches were.")),
                SuccessType = "object",
            });

    /// <summary>
    /// Answers <c>{"Written": n}</c>. A bad line is a 400 naming it, with nothing of its batch written and every
    /// earlier batch kept; a body cut off mid-way likewise leaves whole batches only.
    /// </summary>
    private static async Task PostAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options)
    {
        // The body is never held whole, so the body limit binds each line instead.
        if (context.Features.Get<Microsoft.AspNetCore.Http.Features.IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
            limit.MaxRequestBodySize = null;
        var batchSize = ReadBatchSize(context.Request.Query["batchSize"]);
        var reader = context.Request.BodyReader;
        long written;
        try
        {
            written = await WriteLinesAsync(reader, database, batchSize, options.MaxRequestBodyBytes, context.RequestAborted);
        }
        catch (Exception ex) when (ex is not OperationCanceledException and not IOException and not BadHttpRequestException)
        {
            // A client still sending would have its connection reset before it reads the error: the rest is read and dropped first.
            await DrainAsync(reader, context.RequestAborted);
            throw;
        }

        context.Response.ContentType = JsonOutput.ContentType;
        using var json = new Utf8JsonWriter(context.Response.BodyWriter, JsonOutput.WriterOptions);
        json.WriteStartObject();
        json.WriteNumber("Written", written);
        json.WriteEndObject();
        json.Flush();
    }

    private static async Task DrainAsync(PipeReader reader, CancellationToken cancellationToken)
    {
        while (true)
        {
            var read = await reader.ReadAsync(cancellationToken);
            reader.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
                return;
        }
    }

    private static async Task<long> WriteLinesAsync(PipeReader reader, DocumentDatabase database, int batchSize, long maxLineBytes,
        CancellationToken cancellationToken)
    {
        var batch = new List<BatchCommand>(batchSize);
        long lineNumber = 0, firstLine = 0, written = 0;
        while (true)
        {
            var read = await reader.ReadAsync(cancellationToken);
            var buffer = read.Buffer;
            try
            {
                while (JsonLine.TryRead(ref buffer, read.IsCompleted, out var line))
                {
                    lineNumber++;
                    // A whole line that arrived in one read is checked here; a partial one below, as it grows.
                    if (line.Length > maxLineBytes)
                        throw LineTooLong(lineNumber, maxLineBytes, written);
                    if (JsonLine.IsBlank(line))
                        continue;
                    if (batch.Count == 0)
                        firstLine = lineNumber;
                    // A line within one buffer segment is read where it lies: the document keeps nothing of the line's
                    // bytes (its content is new BSON, its key a string), so the pipe may reuse them once the loop advances.
                    if (!JsonLine.TryParse(line.IsSingleSegment ? line.First : line.ToArray(), out var document, out var error))
                        throw RequestException.BadRequest(string.Create(CultureInfo.InvariantCulture,
                            $"Line {lineNumber}: {error} Nothing of its batch (lines {firstLine}-{lineNumber}) was written; {written} documents before it were."));
                    batch.Add(BatchCommand.Put(document!.Key, document.Content!.Value.Data, document.Content.Value.Metadata, document.ExpectedEtag));
                    if (batch.Count == batchSize)
                        written += Write(database, batch);
                }
            }
            finally
            {
                reader.AdvanceTo(buffer.Start, buffer.End);
            }
            if (buffer.Length > maxLineBytes)
                throw LineTooLong(lineNumber + 1, maxLineBytes, written);
            if (read.IsCompleted)
                break;
        }
        if (batch.Count > 0)
            written += Write(database, batch);
        return written;
    }

    private static RequestException LineTooLong(long lineNumber, long maxLineBytes, long written) =>
        RequestException.BadRequest(string.Create(CultureInfo.InvariantCulture,
            $"Line {lineNumber} is longer than {maxLineBytes} bytes. Nothing of its batch was written; {written} documents before it were."));

    /// <summary>One transaction, synchronous on this thread (no await inside it).</summary>
    private static int Write(DocumentDatabase database, List<BatchCommand> batch)
    {
        database.Batch(batch);
        var count = batch.Count;
        batch.Clear();
        return count;
    }

    private static int ReadBatchSize(string? text)
    {
        if (string.IsNullOrEmpty(text))
            return DefaultBatchSize;
        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var size) && size is >= 1 and <= MaxBatchSize
            ? size
            : throw RequestException.BadRequest($"batchSize must be a whole number from 1 to {MaxBatchSize}; got '{text}'.");
    }
}
