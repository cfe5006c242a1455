using System.Buffers;
using System.IO.Pipelines;
using System.Text.RegularExpressions;

namespace RavenLite.Server.Cli;

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
        var batch = new ImportBatch();
        long lineNumber = 0;
        var length = input.CanSeek ? input.Length : 0;
        // The batch being written while the next one is read and converted: the write and the conversion overlap.
        Task writing = Task.CompletedTask;

        async Task WriteBatchAsync()
        {
            TransferDocument[] documents;
            try
            {
                documents = Convert(batch);
            }
            catch (TransferException ex)
            {
                // The batch before it is written (or refused) first, so the message counts what was imported.
                batch.Dispose();
                await writing;
                throw new TransferException($"{ex.Message} {NothingWritten(batch, progress.Done)}", ex.InnerException);
            }
            await writing;
            var lines = batch;
            var fraction = length > 0 ? (double)input.Position / length : (double?)null;
            batch = new ImportBatch();
            writing = Task.Run(() => WriteAsync(target, documents, lines, fraction, progress, cancellationToken), cancellationToken);
        }

        try
        {
            while (true)
            {
                var read = await reader.ReadAsync(cancellationToken);
                var buffer = read.Buffer;
                while (JsonLine.TryRead(ref buffer, read.IsCompleted, out var line))
                {
                    lineNumber++;
                    if (JsonLine.IsBlank(line))
                        continue;
                    batch.Add(line, lineNumber);
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
            await writing;
        }
        finally
        {
            // Never close the database under a batch still being written (a failed read, cancellation).
            await Task.WhenAny(writing);
            batch.Dispose();
        }
        progress.Finish();
        return progress.Summary("Imported");
    }

    /// <summary>One batch in one transaction; a refusal names the line of the refused command.</summary>
    private static async Task WriteAsync(IDocumentTarget target, TransferDocument[] documents, ImportBatch lines,
        double? fraction, TransferProgress progress, CancellationToken cancellationToken)
    {
        using (lines)
        {
            try
            {
                await target.WriteAsync(documents, cancellationToken);
            }
            catch (Exception ex) when (ex is ArgumentException or TransferException)
            {
                throw Refused(ex, lines, progress.Done);
            }
            progress.Add(lines.Count, fraction);
        }
    }

    /// <summary>
    /// Parses and checks every line of the batch on every core (turning JSON into BSON is most of an import's work);
    /// the first bad line, in file order, stops the import before anything of the batch is written (the caller adds
    /// what was written before it to the message).
    /// </summary>
    private static TransferDocument[] Convert(ImportBatch batch)
    {
        var documents = new TransferDocument[batch.Count];
        var errors = new string?[batch.Count];
        Parallel.For(0, batch.Count, i =>
        {
            if (JsonLine.TryParse(batch.LineAt(i), out var document, out var error))
                documents[i] = document!;
            else
                errors[i] = error;
        });
        for (var i = 0; i < errors.Length; i++)
        {
            if (errors[i] is { } error)
                throw new TransferException($"Line {batch.NumberAt(i)}: {error}");
        }
        return documents;
    }

    /// <summary>A batch the database or server refused: the message names the command, which is turned into its line.</summary>
    private static TransferException Refused(Exception ex, ImportBatch batch, long done)
    {
        var message = ex.Message;
        var match = CommandIndex().Match(message);
        if (match.Success && int.TryParse(match.Groups[1].ValueSpan, out var index) && index < batch.Count)
            message = $"Line {batch.NumberAt(index)}: {message[(match.Index + match.Length)..].TrimStart(' ', ':')}";
        return new TransferException($"{message} {NothingWritten(batch, done)}", ex);
    }

    private static string NothingWritten(ImportBatch batch, long done) =>
        $"Nothing from its batch (lines {batch.NumberAt(0)}-{batch.NumberAt(batch.Count - 1)}, {batch.Count} documents) was written; {done:N0} documents before it were imported.";

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
