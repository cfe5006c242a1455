using System.Text.Json;
using RavenLite.Server.Json;

namespace RavenLite.Server.Cli;

/// <summary><c>ravenlite export</c>: every document, oldest etag first, one JSON object a line.</summary>
internal static class Exporter
{
    public static async Task<string> RunAsync(TransferOptions options, TransferProgress progress, CancellationToken cancellationToken)
    {
        using var endpoint = TransferEndpoints.Open(options);
        var source = (IDocumentSource)endpoint;
        var toStdout = options.File == "-";
        // A file is written beside its name and moved into place once complete, so a failed export leaves no half file.
        var partial = toStdout ? null : Path.GetFullPath(options.File) + ".partial";
        try
        {
            await using (var stream = toStdout ? Console.OpenStandardOutput() : OpenFile(partial!))
            await using (var json = new Utf8JsonWriter(stream, JsonOutput.WriterOptions))
            {
                await foreach (var batch in source.ReadAsync(cancellationToken))
                {
                    foreach (var document in batch)
                        WriteLine(json, stream, document);
                    await json.FlushAsync(cancellationToken);
                    progress.Add(batch.Count, source.Total is > 0 and var total ? (double)(progress.Done + batch.Count) / total : null);
                }
            }
            if (partial is not null)
                File.Move(partial, Path.GetFullPath(options.File), overwrite: true);
        }
        catch
        {
            if (partial is not null)
                File.Delete(partial);
            throw;
        }
        progress.Finish();
        return progress.Summary("Exported");
    }

    /// <summary><c>{"key":"...","metadata":{...},"data":{...}}</c> and a line feed; the JSON is the stored JSON as it is.</summary>
    private static void WriteLine(Utf8JsonWriter json, Stream stream, TransferDocument document)
    {
        json.WriteStartObject();
        json.WriteString("key", document.Key);
        json.WritePropertyName("metadata");
        json.WriteRawValue(document.MetadataJson.Span, skipInputValidation: true);
        json.WritePropertyName("data");
        json.WriteRawValue(document.DataJson.Span, skipInputValidation: true);
        json.WriteEndObject();
        json.Flush();
        json.Reset();
        stream.WriteByte((byte)'\n');
    }

    private static FileStream OpenFile(string path)
    {
        try
        {
            return new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new TransferException($"Cannot write {path}: {ex.Message}", ex);
        }
    }
}
