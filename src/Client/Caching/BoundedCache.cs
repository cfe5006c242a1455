using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;

namespace RavenLite.Client.Caching;

/// <summary>
/// A map bounded by entries and estimated bytes, evicting with the document cache's main-queue policy: a FIFO
/// that gives an entry used since it entered (or since its last chance) one more pass instead of evicting it. A hit
/// is a lock-free dictionary read and a use mark; adds, removals and eviction take one lock. Thread-safe.
/// </summary>
internal sealed class BoundedCache<TKey, TValue> where TKey : notnull
{
    private readonly ConcurrentDictionary<TKey, Entry> _entries;
    private readonly Queue<Entry> _queue = new();
    private readonly Lock _lock = new();
    private readonly int _maxEntries;
    private readonly long _maxBytes;
    private int _count;
    private long _bytes;
    private long _hits;
    private long _misses;
    private long _evictions;

    public BoundedCache(int maxEntries, long maxBytes, IEqualityComparer<TKey> comparer)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxEntries);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxBytes);
        _maxEntries = maxEntries;
        _maxBytes = maxBytes;
        _entries = new ConcurrentDictionary<TKey, Entry>(comparer);
    }

    public long Hits => Interlocked.Read(ref _hits);

    public long Misses => Interlocked.Read(ref _misses);

    public long Evictions => Interlocked.Read(ref _evictions);

    public int Count => Volatile.Read(ref _count);

    public long Bytes => Interlocked.Read(ref _bytes);

    public bool TryGet(TKey key, [MaybeNullWhen(false)] out TValue value)
    {
        if (_entries.TryGetValue(key, out var entry))
        {
            if (!entry.Used)
                entry.Used = true;
            Interlocked.Increment(ref _hits);
            value = entry.Value;
            return true;
        }
        Interlocked.Increment(ref _misses);
        value = default;
        return false;
    }

    /// <summary>Adds or replaces the value under <paramref name="key"/>; one bigger than the whole cache is not kept.</summary>
    public void Set(TKey key, TValue value, long bytes)
    {
        if (bytes > _maxBytes)
        {
            Remove(key);
            return;
        }
        var entry = new Entry(key, value, bytes);
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var old))
                Drop(old);
            _entries[key] = entry;
            _queue.Enqueue(entry);
            _count++;
            _bytes += bytes;
            while (_count > _maxEntries || _bytes > _maxBytes)
                EvictOne();
            if (_queue.Count > 2 * _count + 64)
                DropRemovedFromQueue();
        }
    }

    public void Remove(TKey key)
    {
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var entry))
                Drop(entry);
        }
    }

    public void Clear()
    {
        lock (_lock)
        {
            _entries.Clear();
            _queue.Clear();
            _count = 0;
            _bytes = 0;
        }
    }

    private void EvictOne()
    {
        var entry = _queue.Dequeue();
        if (entry.Removed)
            return;
        if (entry.Used)
        {
            entry.Used = false;
            _queue.Enqueue(entry);
            return;
        }
        Drop(entry);
        _evictions++;
    }

    /// <summary>Replacements and removals leave slots behind; past twice the live entries they are swept out.</summary>
    private void DropRemovedFromQueue()
    {
        var live = _queue.Where(entry => !entry.Removed).ToArray();
        _queue.Clear();
        foreach (var entry in live)
            _queue.Enqueue(entry);
    }

    /// <summary>Takes an entry out of the map; its queue slot is skipped when it comes up.</summary>
    private void Drop(Entry entry)
    {
        _entries.TryRemove(new KeyValuePair<TKey, Entry>(entry.Key, entry));
        entry.Removed = true;
        _count--;
        _bytes -= entry.Bytes;
    }

    private sealed class Entry(TKey key, TValue value, long bytes)
    {
        public TKey Key { get; } = key;

        public TValue Value { get; } = value;

        public long Bytes { get; } = bytes;

        public volatile bool Used;

        public bool Removed;
    }
}
