namespace RavenLite.Caching;

// What EvictionPolicy keeps of a cached item: its place in one of the policy's queues, the bytes
// charged for it and the uses remembered since it was queued. Every member but the use count is read and written
// under the owning cache's lock.
internal abstract class EvictionEntry
{
    // Uses remembered, at most; so an entry survives at most this many passes of the main queue unused.
    private const int MaxUses = 3;

    private int _uses;

    // The bytes the cache counts for this entry now.
    public long ChargedBytes { get; set; }

    // The queue holding the entry; null once it has left the cache.
    public EvictionQueue? Queue { get; set; }

    public EvictionEntry? Previous { get; set; }

    public EvictionEntry? Next { get; set; }

    // Reads since the entry was queued or last passed over, up to MaxUses.
    public int Uses => Volatile.Read(ref _uses);

    // The hash the ghost queue remembers the entry by once it is evicted after one read.
    public abstract int GhostHash { get; }

    // Called on every hit, without a lock: approximate counts are enough, so no atomics.
    public void Touch()
    {
        if (_uses < MaxUses)
            _uses++;
    }

    // Spends one remembered use (a second chance in the main queue).
    public void SpendUse() => _uses = Math.Max(0, _uses - 1);

    // Forgets the uses (on promotion from the small queue to the main one).
    public void ForgetUses() => _uses = 0;

    // The entry has left the cache (evicted, removed or cleared): let go of what it holds.
    public virtual void Release()
    {
    }
}
