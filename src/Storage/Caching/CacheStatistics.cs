namespace RavenLite.Storage.Caching;

/// <summary>The document cache's counters at one moment.</summary>
/// <param name="Enabled">False when the store was opened with the cache off (every other figure is then 0).</param>
/// <param name="LimitBytes">The size limit.</param>
/// <param name="Hits">Reads answered from the cache since the store opened.</param>
/// <param name="Misses">Reads that deserialized BSON since the store opened.</param>
/// <param name="Evictions">Entries evicted to stay within <paramref name="LimitBytes"/>.</param>
/// <param name="Entries">Documents cached now.</param>
/// <param name="Bytes">Estimated bytes the cached documents keep alive now.</param>
public sealed record CacheStatistics(bool Enabled, long LimitBytes, long Hits, long Misses, long Evictions, long Entries, long Bytes)
{
    /// <summary>The statistics of a store whose cache is off.</summary>
    public static CacheStatistics Disabled { get; } = new(false, 0, 0, 0, 0, 0, 0);

    /// <summary>
    /// Reads not cached because the cache was full and had not seen the version lately (a first read once full is
    /// only remembered; a second one soon after is cached), since the store opened.
    /// </summary>
    public long Refused { get; init; }

    /// <summary>Hits over all lookups; 0 before the first lookup.</summary>
    public double HitRatio => Hits + Misses == 0 ? 0 : (double)Hits / (Hits + Misses);
}
