using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using RavenLite.Caching;

namespace RavenLite.Client.Caching;

/// <summary>
/// A map bounded by entries and estimated bytes, evicting by the repository's one rule (<see cref="EvictionPolicy"/>,
/// the document cache's). A hit is a lock-free dictionary read and a use mark; adds, removals and eviction take one
/// lock. Thread-safe.
/// </summary>
internal sealed class BoundedCache<TKey, TValue> where TKey : notnull
{
    private readonly ConcurrentDictionary<TKey, Entry> _entries;
    private readonly EvictionPolicy _policy;
    private readonly Lock _lock = new();
    private long _hits;
    private long _misses;

    public BoundedCache(int maxEntries, long maxBytes, IEqualityComparer<TKey> comparer)
    {
        _entries = new ConcurrentDictionary<TKey, Entry>(comparer);
        _policy = new EvictionPolicy(maxBytes, maxEntries,
            evicted => _entries.TryRemove(new KeyValuePair<TKey, Entry>(((Entry)evicted).Key, (Entry)evicted)));
    }

    public long Hits => Interlocked.Read(ref _hits);

    public long Misses => Interlocked.Read(ref _misses);

    public long Evictions => _policy.Evictions;

    public int Count => _policy.Count;

    public long Bytes => _policy.Bytes;

    public bool TryGet(TKey key, [MaybeNullWhen(false)] out TValue value)
    {
        if (_entries.TryGetValue(key, out var entry))
        {
            entry.Touch();
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
        if (bytes > _policy.LimitBytes)
        {
            Remove(key);
            return;
        }
        var entry = new Entry(key, value, _entries.Comparer.GetHashCode(key)) { ChargedBytes = bytes };
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var old))
                _policy.Remove(old);
            _entries[key] = entry;
            _policy.Admit(entry);
        }
    }

    public void Remove(TKey key)
    {
        lock (_lock)
        {
            if (_entries.TryRemove(key, out var entry))
                _policy.Remove(entry);
        }
    }

    public void Clear()
    {
        lock (_lock)
        {
            _entries.Clear();
            _policy.Clear();
        }
    }

    private sealed class Entry(TKey key, TValue value, int hash) : EvictionEntry
    {
        public TKey Key { get; } = key;

        public TValue Value { get; } = value;

        public override int GhostHash => hash;
    }
}
