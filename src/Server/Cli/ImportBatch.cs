using System.Buffers;
using RavenLite.Server.Json;

namespace RavenLite.Server.Cli;

/// <summary>
/// The lines of one import batch, copied end to end into one pooled buffer rather than an array per line (an array
/// per line was a tenth of what an import allocated). The documents parsed from the lines point into the buffer, so
/// it goes back to the pool only once the batch is written or refused.
/// </summary>
internal sealed class ImportBatch : IDisposable
{
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(1 << 20);
    private int _used;
    private readonly List<(int Offset, int Length, long Number)> _lines = new(TransferOptions.BatchSize);

    public int Count => _lines.Count;

    /// <summary>The line's number in the file, counting from 1.</summary>
    public long NumberAt(int index) => _lines[index].Number;

    public ReadOnlyMemory<byte> LineAt(int index) => _buffer.AsMemory(_lines[index].Offset, _lines[index].Length);

    public void Add(ReadOnlySequence<byte> line, long number)
    {
        var length = checked((int)line.Length);
        PooledBytes.Grow(ref _buffer, _used, length);
        line.CopyTo(_buffer.AsSpan(_used));
        _lines.Add((_used, length, number));
        _used += length;
    }

    public void Dispose()
    {
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
            ArrayPool<byte>.Shared.Return(buffer);
    }
}
