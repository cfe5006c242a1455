using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Metrics;
using RavenLite.Caching;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Caching;

/// <summary>
/// Parsed documents keyed by (folded key, etag), in front of every document read, bounded by bytes.
/// A hit is a lock-free dictionary read over the engine's span plus a use mark; only misses, writes'
/// clean-up and eviction take the policy lock. Thread-safe.
/// </summary>
/// <remarks>
/// Eviction is the repository's one rule, <see cref="EvictionPolicy"/> (S3-FIFO-like): a scan (paging through
/// everything, the indexer's etag feed) passes through its small queue without pushing out the documents that are
/// read again and again. Once full, the cache admits a version only on its second read within a while (the policy's
/// doorkeeper), so the one-time reads of a scan are refused rather than queued and evicted later: they push nothing
/// out and are garbage as soon as the reader is done with them.
/// </remarks>
internal sealed class DocumentCache : IDisposable
{
    private readonly Lock _policyLock = new();
    private readonly EvictionPolicy _policy;
    private readonly ConcurrentDictionary<CacheKey, CacheEntry> _entries;
    private readonly ConcurrentDictionary<CacheKey, CacheEntry>.AlternateLookup<CacheLookupKey> _lookup;
    private readonly StripedCounter _hits = new();
    private readonly StripedCounter _misses = new();

    public DocumentCache(long limitBytes, string databaseName, Meter meter)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(limitBytes);
        LimitBytes = limitBytes;
        _entries = new ConcurrentDictionary<CacheKey, CacheEntry>(CacheKeyComparer.Instance);
        _policy = new EvictionPolicy(limitBytes, int.MaxValue,
            evicted => _entries.TryRemove(new KeyValuePair<CacheKey, CacheEntry>(((CacheEntry)evicted).Key, (CacheEntry)evicted)),
            refuseFirstReadsWhenFull: true);
        _lookup = _entries.GetAlternateLookup<CacheLookupKey>();
        CreateInstruments(meter, databaseName);
    }

    /// <summary>The most bytes the cache holds.</summary>
    public long LimitBytes { get; }

    /// <summary>
    /// The cached version <paramref name="etag"/> of the document stored under <paramref name="storageKey"/>.
    /// Allocates nothing. Counts a hit, or a miss unless <paramref name="countMiss"/> is false (the caller
    /// then reads the document through a path that counts it).
    /// </summary>
    public bool TryGet(ReadOnlySpan<byte> storageKey, long etag, [NotNullWhen(true)] out Document? document, bool countMiss = true)
    {
        if (_lookup.TryGetValue(new CacheLookupKey(storageKey, etag), out var entry) && entry.Document is { } cached)
        {
            entry.Touch();
            _hits.Increment();
            document = cached;
            return true;
        }
        if (countMiss)
            _misses.Increment();
        document = null;
        return false;
    }

    /// <summary>
    /// Fills <paramref name="documents"/> with the cached ones of <paramref name="versions"/>, through the entry each
    /// version remembers while that entry still holds its document, else by a lookup that it then remembers (or, on a
    /// miss, forgets). Counts the hits, not the misses (the caller reads those through a path that counts them).
    /// </summary>
    /// <returns>The positions of the versions not cached; null when every one was.</returns>
    public List<int>? TryGetKnown(IReadOnlyList<KnownVersion> versions, Document?[] documents)
    {
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        List<int>? misses = null;
        var hits = 0;
        for (var i = 0; i < documents.Length; i++)
        {
            var version = versions[i];
            var entry = version.CachedEntry;
            var document = entry?.Owner == this ? entry.Document : null;
            if (document is null)
            {
                if (!_lookup.TryGetValue(new CacheLookupKey(buffer[..StorageKey.ToStorage(version.Key, buffer)], version.Etag), out entry)
                    || entry.Document is not { } found)
                {
                    version.CachedEntry = null;
                    (misses ??= []).Add(i);
                    continue;
                }
                version.CachedEntry = entry;
                document = found;
            }
            entry!.Touch();
            documents[i] = document;
            hits++;
        }
        _hits.Add(hits);
        return misses;
    }

    /// <summary>
    /// Caches a document just read from <paramref name="storageKey"/>, unless it alone is bigger than the cache or
    /// the cache is full and has not seen this version lately (its first read is then only remembered, so that a
    /// scan's documents die young; see <see cref="EvictionPolicy"/>).
    /// </summary>
    /// <returns>The document to hand out: the one already cached when another reader got there first.</returns>
    public Document Add(ReadOnlySpan<byte> storageKey, Document document)
    {
        var lookupKey = new CacheLookupKey(storageKey, document.Etag);
        lock (_policyLock)
        {
            // Under the lock an entry in the table has not been released.
            if (_lookup.TryGetValue(lookupKey, out var existing))
                return existing.Document!;
            var hash = CacheKey.ComputeHash(storageKey, document.Etag);
            var bytes = CacheEntry.SizeOf(storageKey.Length, document);
            if (bytes > LimitBytes || !_policy.Admits(hash, bytes))
                return document;
            var key = new CacheKey(storageKey.ToArray(), document.Etag, hash);
            var entry = new CacheEntry(this, key, document);
            document.AttachTo(entry);
            entry.ChargedBytes = entry.CurrentSize;
            _entries.TryAdd(key, entry);
            _policy.Admit(entry);
            return document;
        }
    }

    /// <summary>
    /// Forgets version <paramref name="etag"/> of <paramref name="storageKey"/> (a write replaced or deleted it),
    /// freeing its memory before it would age out. Best effort: a reader of an older snapshot may cache it again.
    /// </summary>
    public void Remove(ReadOnlySpan<byte> storageKey, long etag)
    {
        lock (_policyLock)
        {
            if (_lookup.TryRemove(new CacheLookupKey(storageKey, etag), out _, out var entry))
                _policy.Remove(entry);
        }
    }

    /// <summary>Charges an entry's document for a parsed form it gained after being cached.</summary>
    public void Recharge(CacheEntry entry)
    {
        lock (_policyLock)
        {
            var delta = entry.CurrentSize - entry.ChargedBytes;
            if (delta > 0)
                _policy.Recharge(entry, delta);
        }
    }

    /// <summary>Empties the cache; the counters keep counting.</summary>
    public void Clear()
    {
        lock (_policyLock)
        {
            _entries.Clear();
            _policy.Clear();
        }
    }

    /// <summary>The counters now.</summary>
    public CacheStatistics GetStatistics() => new(
        Enabled: true,
        LimitBytes: LimitBytes,
        Hits: _hits.Sum(),
        Misses: _misses.Sum(),
        Evictions: _policy.Evictions,
        Entries: _policy.Count,
        Bytes: _policy.Bytes) { Refused = _policy.Refusals };

    /// <summary>Empties the cache (its instruments go with the store's meter).</summary>
    public void Dispose() => Clear();

    /// <summary>Creates the cache's instruments on the database's meter, which the store disposes when it closes.</summary>
    private void CreateInstruments(Meter meter, string databaseName)
    {
        KeyValuePair<string, object?>[] tags = [new(CacheMetrics.DatabaseTag, databaseName)];
        meter.CreateObservableCounter(CacheMetrics.Hits, () => new Measurement<long>(_hits.Sum(), tags),
            "{hit}", "Document reads answered from the cache.");
        meter.CreateObservableCounter(CacheMetrics.Misses, () => new Measurement<long>(_misses.Sum(), tags),
            "{miss}", "Document reads that deserialized BSON.");
        meter.CreateObservableCounter(CacheMetrics.Evictions, () => new Measurement<long>(_policy.Evictions, tags),
            "{entry}", "Cached documents evicted to stay within the size limit.");
        meter.CreateObservableCounter(CacheMetrics.Refused, () => new Measurement<long>(_policy.Refusals, tags),
            "{document}", "Document reads not cached because the cache was full and had not seen the version lately.");
        meter.CreateObservableGauge(CacheMetrics.Entries, () => new Measurement<long>(_policy.Count, tags),
            "{entry}", "Documents in the cache.");
        meter.CreateObservableGauge(CacheMetrics.Bytes, () => new Measurement<long>(_policy.Bytes, tags),
            "By", "Estimated bytes the cached documents keep alive.");
        meter.CreateObservableGauge(CacheMetrics.LimitBytes, () => new Measurement<long>(LimitBytes, tags),
            "By", "The cache's size limit.");
    }
}
