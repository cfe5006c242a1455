namespace RavenLite.Storage.Caching;

internal sealed partial class DocumentCache
{
    private readonly Lock _policyLock = new();
    private readonly CacheQueue _small = new();
    private readonly CacheQueue _main = new();
    private readonly GhostQueue _ghosts = new();
    private readonly long _smallTargetBytes;
    private long _bytes;
    private int _count;
    private long _evictions;

    /// <summary>Charges an entry's document for a parsed form it gained after being cached.</summary>
    public void Recharge(CacheEntry entry)
    {
        lock (_policyLock)
        {
            if (entry.Queue is not { } queue)
                return; // evicted, replaced or cleared meanwhile: nothing to charge
            var delta = entry.CurrentSize - entry.ChargedBytes;
            if (delta <= 0)
                return;
            entry.ChargedBytes += delta;
            queue.Bytes += delta;
            Volatile.Write(ref _bytes, _bytes + delta);
            EvictWhileOverLimit();
        }
    }

    private void Admit(CacheEntry entry)
    {
        // A version evicted recently after one read is being read again: it is worth keeping.
        var queue = _ghosts.Remove(entry.Key.Hash) ? _main : _small;
        queue.AddNewest(entry);
        Volatile.Write(ref _bytes, _bytes + entry.ChargedBytes);
        Volatile.Write(ref _count, _count + 1);
    }

    private void EvictWhileOverLimit()
    {
        while (_bytes > LimitBytes && _count > 0)
        {
            if (_small.Count > 0 && (_small.Bytes > _smallTargetBytes || _main.Count == 0))
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
        _ghosts.Add(oldest.Key.Hash, _main.Count);
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

    /// <summary>Takes an entry that has left its queue out of the dictionary and the totals.</summary>
    private void Evict(CacheEntry entry)
    {
        _entries.TryRemove(new KeyValuePair<CacheKey, CacheEntry>(entry.Key, entry));
        entry.Release();
        Volatile.Write(ref _bytes, _bytes - entry.ChargedBytes);
        Volatile.Write(ref _count, _count - 1);
        Volatile.Write(ref _evictions, _evictions + 1);
    }

    /// <summary>Takes an entry already out of the dictionary out of its queue and the totals.</summary>
    private void Forget(CacheEntry entry)
    {
        entry.Queue?.Remove(entry);
        entry.Release();
        Volatile.Write(ref _bytes, _bytes - entry.ChargedBytes);
        Volatile.Write(ref _count, _count - 1);
    }
}
