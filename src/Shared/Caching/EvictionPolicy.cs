namespace RavenLite.Caching;

// The files of src/Shared/Caching carry plain comments, not XML docs: each is compiled into several assemblies, and the
// server's OpenAPI generator reads the XML docs of every assembly it references and fails on a member documented twice.

// The one eviction rule of every RavenLite cache (the document cache, the client's entity and response caches, the
// server's query response cache), S3-FIFO-like: new entries enter a small FIFO (a tenth of the limits); ones used
// again before they reach its end move to the main FIFO, the rest leave and are remembered in a ghost queue (hashes
// only), so one coming back soon goes straight to the main FIFO. The main FIFO gives each entry a second chance per
// remembered use. A scan thus passes through the small queue without pushing out what is used again and again.
// With refuseFirstReadsWhenFull (the document cache), a full cache also refuses what it has not seen lately: until
// the cache is first full every entry is admitted, as above; once full (admitting would evict, or it has evicted),
// an entry is admitted only if its hash is in the ghost queue or the doorkeeper (refused recently), and otherwise
// only remembered by the doorkeeper; the cache counts as full until a small queue's worth (a tenth) is free again.
// A scan then evicts almost nothing and keeps nothing: its items are never queued (reading ten million documents
// through a full 1 GiB document cache evicted 48 thousand instead of 7.9 million), so they are garbage as soon as
// the reader is done with them, not after ageing through the small queue. The client's caches and the server's query
// response cache leave the rule off: a miss there costs a query or a round trip rather than a parse, so keeping an
// entry from its first use is worth more there.
// Not thread-safe: the owning cache calls it under its lock and keeps its own map; hits only
// EvictionEntry.Touch the entry. Bytes and Count may be read without the
// lock.
internal sealed class EvictionPolicy
{
    private readonly EvictionQueue _small = new();
    private readonly EvictionQueue _main = new();
    private readonly GhostQueue _ghosts = new();
    private readonly Doorkeeper? _doorkeeper;
    private readonly Action<EvictionEntry> _evicted;
    private readonly long _smallTargetBytes;
    private readonly long _smallTargetCount;
    private long _bytes;
    private int _count;
    private long _evictions;
    private long _refusals;
    private bool _full; // set by an eviction or a refusal; cleared by Clear and when a small queue's worth is free

    // A policy keeping at most limitBytes and limitCount entries;
    // evicted takes an evicted entry out of the owner's map (the policy has released it); refuseFirstReadsWhenFull
    // turns on the admission rule above (the owner then asks Admits before it makes and admits an entry).
    public EvictionPolicy(long limitBytes, int limitCount, Action<EvictionEntry> evicted, bool refuseFirstReadsWhenFull = false)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(limitBytes);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(limitCount);
        LimitBytes = limitBytes;
        LimitCount = limitCount;
        _smallTargetBytes = Math.Max(1, limitBytes / 10);
        _smallTargetCount = Math.Max(1, limitCount / 10);
        _evicted = evicted;
        if (refuseFirstReadsWhenFull)
            _doorkeeper = new Doorkeeper();
    }

    public long LimitBytes { get; }

    public int LimitCount { get; }

    // The bytes charged for the entries kept now.
    public long Bytes => Volatile.Read(ref _bytes);

    // The entries kept now.
    public int Count => Volatile.Read(ref _count);

    // Entries evicted to stay within the limits so far.
    public long Evictions => Volatile.Read(ref _evictions);

    // Items a full cache refused to admit so far (Admits returned false).
    public long Refusals => Volatile.Read(ref _refusals);

    // Whether an item of hash ghostHash, charged bytes, is to be admitted now: always when the admission rule is off
    // or the cache is not full; when full, only if it was refused or evicted recently (doorkeeper or ghost queue),
    // and otherwise it is remembered and refused (counted in Refusals).
    public bool Admits(int ghostHash, long bytes)
    {
        if (_doorkeeper is null)
            return true;
        if (_bytes + bytes <= LimitBytes && _count < LimitCount)
        {
            // Full stays full until a small queue's worth is free: entries grow after admission (a document's parsed
            // forms), evicting a little each time, and a scan would otherwise be admitted into each gap so made.
            if (!_full)
                return true;
            if (_bytes + bytes <= LimitBytes - _smallTargetBytes && _count < LimitCount - _smallTargetCount)
            {
                _full = false;
                return true;
            }
        }
        _full = true;
        if (_ghosts.Contains(ghostHash) || _doorkeeper.Contains(ghostHash))
            return true;
        _doorkeeper.Add(ghostHash, _count);
        Volatile.Write(ref _refusals, _refusals + 1);
        return false;
    }

    // Queues a new entry (charged EvictionEntry.ChargedBytes), then evicts to stay within the limits.
    public void Admit(EvictionEntry entry)
    {
        // An entry evicted recently after one use is being used again: it is worth keeping.
        var queue = _ghosts.Remove(entry.GhostHash) ? _main : _small;
        queue.AddNewest(entry);
        Volatile.Write(ref _bytes, _bytes + entry.ChargedBytes);
        Volatile.Write(ref _count, _count + 1);
        EvictWhileOverLimit();
    }

    // Charges a queued entry delta more bytes (it grew), then evicts to stay within the limits.
    public void Recharge(EvictionEntry entry, long delta)
    {
        if (entry.Queue is not { } queue)
            return; // evicted, replaced or cleared meanwhile: nothing to charge
        entry.ChargedBytes += delta;
        queue.Bytes += delta;
        Volatile.Write(ref _bytes, _bytes + delta);
        EvictWhileOverLimit();
    }

    // Takes an entry the owner has already taken out of its map out of its queue and the totals.
    public void Remove(EvictionEntry entry)
    {
        if (entry.Queue is null)
            return;
        entry.Queue.Remove(entry);
        entry.Release();
        Volatile.Write(ref _bytes, _bytes - entry.ChargedBytes);
        Volatile.Write(ref _count, _count - 1);
    }

    // Releases every entry and forgets them; the eviction count stays.
    public void Clear()
    {
        _small.Clear();
        _main.Clear();
        _ghosts.Clear();
        _doorkeeper?.Clear();
        _full = false;
        Volatile.Write(ref _bytes, 0);
        Volatile.Write(ref _count, 0);
    }

    private void EvictWhileOverLimit()
    {
        while ((_bytes > LimitBytes || _count > LimitCount) && _count > 0)
        {
            if (_small.Count > 0 && (_small.Bytes > _smallTargetBytes || _small.Count > _smallTargetCount || _main.Count == 0))
                EvictFromSmall();
            else
                EvictFromMain();
        }
    }

    private void EvictFromSmall()
    {
        var oldest = _small.Oldest!;
        _small.Remove(oldest);
        if (oldest.Uses > 0)
        {
            oldest.ForgetUses();
            _main.AddNewest(oldest);
            return;
        }
        _ghosts.Add(oldest.GhostHash, _main.Count);
        Evict(oldest);
    }

    private void EvictFromMain()
    {
        var oldest = _main.Oldest!;
        _main.Remove(oldest);
        if (oldest.Uses > 0)
        {
            oldest.SpendUse();
            _main.AddNewest(oldest);
            return;
        }
        Evict(oldest);
    }

    private void Evict(EvictionEntry entry)
    {
        _full = true;
        entry.Release();
        Volatile.Write(ref _bytes, _bytes - entry.ChargedBytes);
        Volatile.Write(ref _count, _count - 1);
        Volatile.Write(ref _evictions, _evictions + 1);
        _evicted(entry);
    }
}
