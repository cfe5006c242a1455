namespace RavenLite.Server.Indexes;

/// <summary>
/// The last query responses the server sent, as the bytes of their bodies (all but the <c>Timings</c> member), so
/// an unchanged query is answered without running it: looked up by a <see cref="QueryResponseKey"/> built from the
/// index's <see cref="RavenLite.Indexing.IndexVersion"/> (which moves with every write and every indexing batch) and
/// every query parameter, before the query runs. Only non-stale answers are added. Least recently used entries go
/// first once the bodies pass <see cref="LimitBytes"/>; a body over a quarter of it is never kept. Thread-safe.
/// </summary>
internal sealed class QueryResponseCache
{
    /// <summary>Bytes counted per entry besides its body: the key, the tag, the list node.</summary>
    private const int EntryOverhead = 256;

    private readonly object _lock = new();
    private readonly Dictionary<QueryResponseKey, LinkedListNode<(QueryResponseKey Key, QueryResponseEntry Entry)>> _entries = [];
    private readonly LinkedList<(QueryResponseKey Key, QueryResponseEntry Entry)> _recency = new();
    private long _bytes;

    /// <summary>A cache holding at most <paramref name="limitBytes"/> (0 turns it off).</summary>
    public QueryResponseCache(long limitBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limitBytes);
        LimitBytes = limitBytes;
    }

    /// <summary>The most bytes the kept bodies take.</summary>
    public long LimitBytes { get; }

    /// <summary>Whether responses are kept at all.</summary>
    public bool Enabled => LimitBytes > 0;

    /// <summary>The largest body kept: a quarter of <see cref="LimitBytes"/>, so one page never empties the cache.</summary>
    public int MaxBodyBytes => (int)Math.Min(int.MaxValue, LimitBytes / 4);

    /// <summary>The entries kept now.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
                return _entries.Count;
        }
    }

    /// <summary>The bytes counted for the entries kept now (bodies plus a fixed overhead each).</summary>
    public long Bytes => Interlocked.Read(ref _bytes);

    /// <summary>The entry kept under <paramref name="key"/>, now the most recently used; allocates nothing.</summary>
    public bool TryGet(in QueryResponseKey key, out QueryResponseEntry entry)
    {
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var node))
            {
                _recency.Remove(node);
                _recency.AddFirst(node);
                entry = node.Value.Entry;
                return true;
            }
        }
        entry = null!;
        return false;
    }

    /// <summary>Keeps <paramref name="entry"/> under <paramref name="key"/>, evicting the least recently used to stay in bounds.</summary>
    public void Add(in QueryResponseKey key, QueryResponseEntry entry)
    {
        var size = entry.Body.Length + EntryOverhead;
        if (!Enabled || entry.Body.Length > MaxBodyBytes)
            return;
        lock (_lock)
        {
            if (_entries.Remove(key, out var old))
            {
                _recency.Remove(old);
                Interlocked.Add(ref _bytes, -(old.Value.Entry.Body.Length + EntryOverhead));
            }
            _entries[key] = _recency.AddFirst((key, entry));
            Interlocked.Add(ref _bytes, size);
            while (Interlocked.Read(ref _bytes) > LimitBytes && _recency.Last is { } last)
            {
                _recency.RemoveLast();
                _entries.Remove(last.Value.Key);
                Interlocked.Add(ref _bytes, -(last.Value.Entry.Body.Length + EntryOverhead));
            }
        }
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
