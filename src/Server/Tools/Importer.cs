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
        var batch = new List<TransferDocument>(TransferOptions.BatchSize);
        var lines = new List<long>(TransferOptions.BatchSize);
        long lineNumber = 0;
        var length = input.CanSeek ? input.Length : 0;

        async Task WriteBatchAsync()
        {
            try
            {
                await target.WriteAsync(batch, cancellationToken);
            }
            catch (Exception ex) when (ex is ArgumentException or TransferException)
            {
                throw Refused(ex, batch.Count, lines, progress.Done);
            }
            progress.Add(batch.Count, length > 0 ? (double)input.Position / length : null);
            batch.Clear();
            lines.Clear();
        }

        while (true)
        {
            var read = await reader.ReadAsync(cancellationToken);
            var buffer = read.Buffer;
            while (TryReadLine(ref buffer, read.IsCompleted, out var line))
            {
                lineNumber++;
                if (JsonLine.IsBlank(line))
                    continue;
                batch.Add(JsonLine.Parse(line, lineNumber, lines.Count > 0 ? lines[0] : lineNumber, progress.Done));
                lines.Add(lineNumber);
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

    /// <summary>The next line without its line feed (and carriage return); at the end, the rest when it has no line feed.</summary>
    private static bool TryReadLine(ref ReadOnlySequence<byte> buffer, bool completed, out ReadOnlySequence<byte> line)
    {
        if (buffer.PositionOf((byte)'\n') is { } end)
        {
            line = buffer.Slice(0, end);
            buffer = buffer.Slice(buffer.GetPosition(1, end));
        }
        else if (completed && !buffer.IsEmpty)
        {
            line = buffer;
            buffer = buffer.Slice(buffer.End);
        }
        else
        {
            line = default;
            return false;
        }
        if (!line.IsEmpty && line.Slice(line.Length - 1).FirstSpan[0] == (byte)'\r')
            line = line.Slice(0, line.Length - 1);
        return true;
    }

    /// <summary>A batch the database or server refused: the message names the command, which is turned into its line.</summary>
    private static TransferException Refused(Exception ex, int batchCount, List<long> lines, long done)
    {
        var message = ex.Message;
        var match = CommandIndex().Match(message);
        if (match.Success && int.TryParse(match.Groups[1].ValueSpan, out var index) && index < lines.Count)
            message = $"Line {lines[index]}: {message[(match.Index + match.Length)..].TrimStart(' ', ':')}";
        return new TransferException(
            $"{message} Nothing from the batch of lines {lines[0]}-{lines[^1]} ({batchCount} documents) was written; {done:N0} documents before it were imported.", ex);
    }

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
