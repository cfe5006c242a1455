using System.Buffers;
using System.IO.Pipelines;
using System.Text.RegularExpressions;

namespace RavenLite.Server.Tools;

/// <summary>
/// <c>ravenlite import</c>: JSON lines read in batches of <see cref="TransferOptions.BatchSize"/>, each batch checked
/// line by line and then written in one transaction. A bad line stops the import before its batch is written.
/// </summary>
internal static partial class Importer
{
    public static async Task<string> RunAsync(TransferOptions options, TransferProgress progress, CancellationToken cancellationToken)
    {
        await using var input = OpenInput(options.File);
        using var endpoint = TransferEndpoints.Open(options);
        var target = (IDocumentTarget)endpoint;
        var reader = PipeReader.Create(input, new StreamPipeReaderOptions(bufferSize: 1 << 16, leaveOpen: true));
        var batch = new List<(byte[] Line, long Number)>(TransferOptions.BatchSize);
        long lineNumber = 0;
        var length = input.CanSeek ? input.Length : 0;

        async Task WriteBatchAsync()
        {
            var documents = Convert(batch, progress.Done);
            try
            {
                await target.WriteAsync(documents, cancellationToken);
            }
            catch (Exception ex) when (ex is ArgumentException or TransferException)
            {
                throw Refused(ex, batch, progress.Done);
            }
            progress.Add(batch.Count, length > 0 ? (double)input.Position / length : null);
            batch.Clear();
        }

        while (true)
        {
            var read = await reader.ReadAsync(cancellationToken);
            var buffer = read.Buffer;
            while (JsonLine.TryRead(ref buffer, read.IsCompleted, out var line))
            {
                lineNumber++;
                if (JsonLine.IsBlank(line))
                    continue;
                batch.Add((line.ToArray(), lineNumber));
                if (batch.Count == TransferOptions.BatchSize)
                    await WriteBatchAsync();
            }
            reader.AdvanceTo(buffer.Start, buffer.End);
            if (read.IsCompleted)
                break;
        }
        await reader.CompleteAsync();
        if (batch.Count > 0)
            await WriteBatchAsync();
        progress.Finish();
        return progress.Summary("Imported");
    }

    /// <summary>
    /// Parses and checks every line of the batch on every core (turning JSON into BSON is most of an import's work);
    /// the first bad line, in file order, stops the import before anything of the batch is written.
    /// </summary>
    private static TransferDocument[] Convert(List<(byte[] Line, long Number)> batch, long done)
    {
        var documents = new TransferDocument[batch.Count];
        var errors = new string?[batch.Count];
        Parallel.For(0, batch.Count, i =>
        {
            if (JsonLine.TryParse(batch[i].Line, out var document, out var error))
                documents[i] = document!;
            else
                errors[i] = error;
        });
        for (var i = 0; i < errors.Length; i++)
        {
            if (errors[i] is { } error)
                throw new TransferException($"Line {batch[i].Number}: {error} {NothingWritten(batch, done)}");
        }
        return documents;
    }

    /// <summary>A batch the database or server refused: the message names the command, which is turned into its line.</summary>
    private static TransferException Refused(Exception ex, List<(byte[] Line, long Number)> batch, long done)
    {
        var message = ex.Message;
        var match = CommandIndex().Match(message);
        if (match.Success && int.TryParse(match.Groups[1].ValueSpan, out var index) && index < batch.Count)
            message = $"Line {batch[index].Number}: {message[(match.Index + match.Length)..].TrimStart(' ', ':')}";
        return new TransferException($"{message} {NothingWritten(batch, done)}", ex);
    }

    private static string NothingWritten(List<(byte[] Line, long Number)> batch, long done) =>
        $"Nothing from its batch (lines {batch[0].Number}-{batch[^1].Number}, {batch.Count} documents) was written; {done:N0} documents before it were imported.";

    private static Stream OpenInput(string file)
    {
        if (file == "-")
            return Console.OpenStandardInput();
        try
        {
            return new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new TransferException($"Cannot read {Path.GetFullPath(file)}: {ex.Message}", ex);
        }
    }

    [GeneratedRegex(@"Batch command (\d+)")]
    private static partial Regex CommandIndex();
}
