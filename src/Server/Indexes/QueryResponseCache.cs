using System.Collections.Concurrent;
using RavenLite.Caching;

namespace RavenLite.Server.Indexes;

/// <summary>
/// The last query responses the server sent, as the bytes of their bodies (all but the <c>Timings</c> member), so
/// an unchanged query is answered without running it: looked up by a <see cref="QueryResponseKey"/> built from the
/// index's <see cref="RavenLite.Indexing.IndexVersion"/> (which moves with every write and every indexing batch) and
/// every query parameter, before the query runs. Only non-stale answers are added. Once the bodies pass
/// <see cref="LimitBytes"/>, entries go by the repository's one rule (<see cref="EvictionPolicy"/>, the document
/// cache's); a body over a quarter of it is never kept. A hit is a lock-free dictionary read. Thread-safe.
/// </summary>
internal sealed class QueryResponseCache
{
    /// <summary>Bytes counted per entry besides its body: the key, the tag, the dictionary node.</summary>
    private const int EntryOverhead = 256;

    private readonly Lock _lock = new();
    private readonly ConcurrentDictionary<QueryResponseKey, Kept> _entries = [];
    private readonly EvictionPolicy? _policy;

    /// <summary>A cache holding at most <paramref name="limitBytes"/> (0 turns it off).</summary>
    public QueryResponseCache(long limitBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limitBytes);
        LimitBytes = limitBytes;
        if (limitBytes > 0)
            _policy = new EvictionPolicy(limitBytes, int.MaxValue,
                evicted => _entries.TryRemove(new KeyValuePair<QueryResponseKey, Kept>(((Kept)evicted).Key, (Kept)evicted)));
    }

    /// <summary>The most bytes the kept bodies take.</summary>
    public long LimitBytes { get; }

    /// <summary>Whether responses are kept at all.</summary>
    public bool Enabled => _policy is not null;

    /// <summary>The largest body kept: a quarter of <see cref="LimitBytes"/>, so one page never empties the cache.</summary>
    public int MaxBodyBytes => (int)Math.Min(int.MaxValue, LimitBytes / 4);

    /// <summary>The entries kept now.</summary>
    public int Count => _policy?.Count ?? 0;

    /// <summary>The bytes counted for the entries kept now (bodies plus a fixed overhead each).</summary>
    public long Bytes => _policy?.Bytes ?? 0;

    /// <summary>The entry kept under <paramref name="key"/>, marked used; allocates nothing.</summary>
    public bool TryGet(in QueryResponseKey key, out QueryResponseEntry entry)
    {
        if (_entries.TryGetValue(key, out var kept))
        {
            kept.Touch();
            entry = kept.Entry;
            return true;
        }
        entry = null!;
        return false;
    }

    /// <summary>Keeps <paramref name="entry"/> under <paramref name="key"/>, evicting by the policy to stay in bounds.</summary>
    public void Add(in QueryResponseKey key, QueryResponseEntry entry)
    {
        if (_policy is null || entry.Body.Length > MaxBodyBytes)
            return;
        var kept = new Kept(key, entry) { ChargedBytes = entry.Body.Length + EntryOverhead };
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var old))
                _policy.Remove(old);
            _entries[key] = kept;
            _policy.Admit(kept);
        }
    }

    private sealed class Kept(QueryResponseKey key, QueryResponseEntry entry) : EvictionEntry
    {
        public QueryResponseKey Key { get; } = key;

        public QueryResponseEntry Entry { get; } = entry;

        public override int GhostHash => Key.GetHashCode();
    }
}

/// <summary>
/// A kept response: the body without its closing <c>,"Timings":{...}}</c>, its <c>ETag</c>, and the key and etag of
/// each document in its <c>Includes</c> section (checked before the body is served again).
/// </summary>
internal sealed record QueryResponseEntry(byte[] Body, string ETag)
{
    /// <summary>The included documents' keys and etags when the body was written; empty without <c>include=</c>.</summary>
    public IReadOnlyList<(string Key, long Etag)> Included { get; init; } = [];
}
