using System.Globalization;
using System.Text;
using System.Text.Json;
using RavenLite.Client.Backend;

namespace RavenLite.Client.Session;

/// <summary>
/// Generates <c>carts/1</c>-style ids without asking the database for each one (HiLo): for each prefix the store
/// reserves a block of numbers by raising the <c>Max</c> of the document <c>Raven/Hilo/{prefix}</c> with an
/// etag check, and hands them out from memory. Two stores (two processes, or a client and a server) reserve
/// different blocks, and a restart reserves past the last block, so an id is never handed out twice. Thread-safe.
/// </summary>
internal sealed class IdGenerator(IStoreBackend backend, int blockSize)
{
    private const int MaxAttempts = 100;
    private readonly Dictionary<string, Block> _blocks = new(DocumentKeyComparer.Instance);

    /// <summary>The next id for <paramref name="prefix"/>: <c>{prefix}/{n}</c>.</summary>
    public string Next(string prefix)
    {
        Block block;
        lock (_blocks)
        {
            if (!_blocks.TryGetValue(prefix, out block!))
                _blocks.Add(prefix, block = new Block());
        }
        lock (block)
        {
            if (block.Next > block.Max)
                (block.Next, block.Max) = Reserve(prefix);
            return string.Create(CultureInfo.InvariantCulture, $"{prefix}/{block.Next++}");
        }
    }

    /// <summary>Raises the stored maximum by one block; retried when another store raised it first.</summary>
    private (long First, long Last) Reserve(string prefix)
    {
        var key = "Raven/Hilo/" + prefix;
        for (var attempt = 0; attempt < MaxAttempts; attempt++)
        {
            var current = backend.Load([key])[0];
            var max = current is null ? 0 : ReadMax(current);
            var data = Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{{\"Max\":{max + blockSize}}}"));
            try
            {
                backend.Batch([WriteCommand.Put(key, data, "{}"u8.ToArray(), current?.Etag ?? 0)]);
                return (max + 1, max + blockSize);
            }
            catch (ConcurrencyException)
            {
                // Another store reserved a block meanwhile: read its maximum and try again.
            }
        }
        throw new InvalidOperationException($"Could not reserve ids for '{prefix}' after {MaxAttempts} attempts: '{key}' keeps changing.");
    }

    private static long ReadMax(StoredDocument document)
    {
        using var json = JsonDocument.Parse(document.DataJson);
        return json.RootElement.TryGetProperty("Max", out var max) && max.TryGetInt64(out var value) && value >= 0
            ? value
            : throw new InvalidDataException($"'{document.Key}' should hold {{\"Max\": <a whole number>}}; it does not.");
    }

    private sealed class Block
    {
        public long Next = 1;
        public long Max;
    }
}
