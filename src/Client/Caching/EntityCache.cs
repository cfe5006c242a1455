using System.Diagnostics.Metrics;

namespace RavenLite.Client.Caching;

/// <summary>
/// Materialized entities of one store, keyed by (document key, etag, CLR type) under the store's serializer settings,
/// shared by all its sessions. A cached instance is an original: it is never handed to user code (sessions get copies)
/// and never changed. A write never needs to find old entries: a new etag is a new key; old ones age out.
/// </summary>
internal sealed class EntityCache : IDisposable
{
    private readonly BoundedCache<EntityKey, object>? _entities;
    private readonly Meter _meter = new(EntityCacheMetrics.MeterName);

    public EntityCache(EntityCacheOptions options, string storeName)
    {
        if (options.Enabled)
            _entities = new BoundedCache<EntityKey, object>(options.MaxEntries, options.MaxBytes, EntityKeyComparer.Instance);
        var tag = new KeyValuePair<string, object?>(EntityCacheMetrics.StoreTag, storeName);
        _meter.CreateObservableCounter(EntityCacheMetrics.Hits, () => new Measurement<long>(Hits, tag), description: "Reads answered with a copy of a cached entity.");
        _meter.CreateObservableCounter(EntityCacheMetrics.Misses, () => new Measurement<long>(Misses, tag), description: "Reads that deserialized.");
        _meter.CreateObservableCounter(EntityCacheMetrics.Evictions, () => new Measurement<long>(_entities?.Evictions ?? 0, tag),
            description: "Entities evicted to stay within the bounds.");
        _meter.CreateObservableGauge(EntityCacheMetrics.Entries, () => new Measurement<int>(Count, tag), description: "Entities cached now.");
        _meter.CreateObservableGauge(EntityCacheMetrics.Bytes, () => new Measurement<long>(_entities?.Bytes ?? 0, tag), unit: "By",
            description: "Estimated bytes the cached entities keep alive.");
    }

    public bool Enabled => _entities is not null;

    /// <summary>Reads answered with a copy of a cached entity: found in the cache, or kept on the document version read.</summary>
    public long Hits => (_entities?.Hits ?? 0) + Interlocked.Read(ref _keptHits);

    private long _keptHits;

    /// <summary>The hits among <see cref="Hits"/> found kept on the document version, with no cache lookup.</summary>
    public long KeptHits => Interlocked.Read(ref _keptHits);

    /// <summary>Counts a hit on an original kept on the document version (<see cref="Backend.StoredDocument"/>), which skips the lookup.</summary>
    public void CountKeptHit() => Interlocked.Increment(ref _keptHits);

    public long Misses => _entities?.Misses ?? 0;

    public int Count => _entities?.Count ?? 0;

    public bool TryGet(string key, long etag, Type type, out object original)
    {
        if (_entities is not null && _entities.TryGet(new EntityKey(key, etag, type), out original!))
            return true;
        original = null!;
        return false;
    }

    /// <summary>Keeps an original deserialized from JSON of <paramref name="jsonBytes"/> bytes.</summary>
    public void Add(string key, long etag, Type type, object original, int jsonBytes) =>
        _entities?.Set(new EntityKey(key, etag, type), original, 2L * jsonBytes + 64);

    /// <summary>Forgets a version a session has just replaced or deleted (it would only age out otherwise).</summary>
    public void Remove(string key, long etag, Type type) => _entities?.Remove(new EntityKey(key, etag, type));

    public void Dispose()
    {
        _meter.Dispose();
        _entities?.Clear();
    }

    private readonly record struct EntityKey(string Key, long Etag, Type Type);

    /// <summary>
    /// Document keys are case-insensitive. The hash leaves the key out: an etag already tells one document version
    /// from every other of the database (etags are unique and increasing), and hashing the key's folded characters
    /// was most of the cost of a hit. Equality still compares the key.
    /// </summary>
    private sealed class EntityKeyComparer : IEqualityComparer<EntityKey>
    {
        public static readonly EntityKeyComparer Instance = new();

        public bool Equals(EntityKey x, EntityKey y) =>
            x.Etag == y.Etag && x.Type == y.Type
            && (ReferenceEquals(x.Key, y.Key) || DocumentKey.SameKey(x.Key, y.Key));

        public int GetHashCode(EntityKey key) => HashCode.Combine(key.Etag, key.Type);
    }
}
