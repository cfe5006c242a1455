namespace RavenLite.Storage.Caching;

/// <summary>
/// The names under which the document cache publishes its counters through
/// <see cref="System.Diagnostics.Metrics"/>. Every measurement carries the tag <see cref="DatabaseTag"/>
/// (the full path of the data folder), so several databases in one process can be told apart.
/// </summary>
public static class CacheMetrics
{
    /// <summary>The meter: <c>RavenLite</c>.</summary>
    public const string MeterName = "RavenLite";

    /// <summary>Tag naming the database (its data folder's full path).</summary>
    public const string DatabaseTag = "ravenlite.database";

    /// <summary>Observable counter: reads answered from the cache.</summary>
    public const string Hits = "ravenlite.cache.hits";

    /// <summary>Observable counter: reads that had to deserialize BSON.</summary>
    public const string Misses = "ravenlite.cache.misses";

    /// <summary>Observable counter: entries evicted to stay within the size limit.</summary>
    public const string Evictions = "ravenlite.cache.evictions";

    /// <summary>
    /// Observable counter: reads not cached because the cache was full and had not seen the version lately.
    /// </summary>
    public const string Refused = "ravenlite.cache.refused";

    /// <summary>Observable gauge: documents cached now.</summary>
    public const string Entries = "ravenlite.cache.entries";

    /// <summary>Observable gauge: estimated bytes the cached documents keep alive.</summary>
    public const string Bytes = "ravenlite.cache.size";

    /// <summary>Observable gauge: the size limit in bytes.</summary>
    public const string LimitBytes = "ravenlite.cache.limit";
}
