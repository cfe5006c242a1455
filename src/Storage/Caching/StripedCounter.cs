using System.Runtime.InteropServices;

namespace RavenLite.Storage.Caching;

/// <summary>
/// A counter that many threads bump at once without fighting over one cache line: each processor
/// adds to its own padded cell, and reading sums the cells. Hits are counted on every read.
/// </summary>
internal sealed class StripedCounter
{
    private readonly PaddedCell[] _cells;
    private readonly int _mask;

    public StripedCounter()
    {
        var cells = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Math.Clamp(Environment.ProcessorCount, 1, 64));
        _cells = new PaddedCell[cells];
        _mask = cells - 1;
    }

    public void Increment() => Interlocked.Increment(ref _cells[Thread.GetCurrentProcessorId() & _mask].Value);

    /// <summary>Adds <paramref name="count"/> at once: one atomic add for a batch of reads.</summary>
    public void Add(int count)
    {
        if (count != 0)
            Interlocked.Add(ref _cells[Thread.GetCurrentProcessorId() & _mask].Value, count);
    }

    public long Sum()
    {
        long sum = 0;
        for (var i = 0; i < _cells.Length; i++)
            sum += Volatile.Read(ref _cells[i].Value);
        return sum;
    }

    /// <summary>One counter alone on its 128 bytes (a cache line, and the adjacent-line prefetcher's pair).</summary>
    [StructLayout(LayoutKind.Explicit, Size = 128)]
    private struct PaddedCell
    {
        [FieldOffset(64)]
        public long Value;
    }
}
