namespace RavenLite.Caching;

// A FIFO of cache entries, linked through the entries themselves so that inserting, removing
// any entry and taking the oldest are all O(1) and allocate nothing. Used under the owning cache's lock only.
internal sealed class EvictionQueue
{
    private EvictionEntry? _newest;
    private EvictionEntry? _oldest;

    public long Bytes { get; set; }

    public int Count { get; private set; }

    public EvictionEntry? Oldest => _oldest;

    public void AddNewest(EvictionEntry entry)
    {
        entry.Queue = this;
        entry.Previous = null;
        entry.Next = _newest;
        if (_newest is not null)
            _newest.Previous = entry;
        _newest = entry;
        _oldest ??= entry;
        Bytes += entry.ChargedBytes;
        Count++;
    }

    public void Remove(EvictionEntry entry)
    {
        if (entry.Previous is null)
            _newest = entry.Next;
        else
            entry.Previous.Next = entry.Next;
        if (entry.Next is null)
            _oldest = entry.Previous;
        else
            entry.Next.Previous = entry.Previous;
        entry.Previous = entry.Next = null;
        entry.Queue = null;
        Bytes -= entry.ChargedBytes;
        Count--;
    }

    // Unlinks and releases every entry (so late size changes of their documents are ignored) and empties the queue.
    public void Clear()
    {
        for (var entry = _newest; entry is not null;)
        {
            var next = entry.Next;
            entry.Previous = entry.Next = null;
            entry.Queue = null;
            entry.Release();
            entry = next;
        }
        _newest = _oldest = null;
        Bytes = 0;
        Count = 0;
    }
}
