namespace RavenLite.Client;

/// <summary>
/// The names under which a store's entity cache publishes its counters through <see cref="System.Diagnostics.Metrics"/>,
/// on the <c>RavenLite</c> meter. Every measurement carries the tag <see cref="StoreTag"/>, so several stores in one
/// process can be told apart.
/// </summary>
public static class EntityCacheMetrics
{
    /// <summary>The meter: <c>RavenLite</c>, as the document cache's.</summary>
    public const string MeterName = "RavenLite";

    /// <summary>Tag naming the store: its backend's <see cref="object.ToString"/> (a server's address, an embedded database's folder).</summary>
    public const string StoreTag = "ravenlite.store";

    /// <summary>Observable counter: reads answered with a copy of a cached entity.</summary>
    public const string Hits = "ravenlite.entity_cache.hits";

    /// <summary>Observable counter: reads that deserialized.</summary>
    public const string Misses = "ravenlite.entity_cache.misses";

    /// <summary>Observable counter: entities evicted to stay within the bounds.</summary>
    public const string Evictions = "ravenlite.entity_cache.evictions";

    /// <summary>Observable gauge: entities cached now.</summary>
    public const string Entries = "ravenlite.entity_cache.entries";

    /// <summary>Observable gauge: estimated bytes the cached entities keep alive.</summary>
    public const string Bytes = "ravenlite.entity_cache.size";
}
