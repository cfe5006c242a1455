using System.Diagnostics.Metrics;

namespace RavenLite.Storage.Caching;

internal sealed partial class DocumentCache
{
    /// <summary>Creates the cache's instruments on the database's meter, which the store disposes when it closes.</summary>
    private void CreateInstruments(Meter meter, string databaseName)
    {
        KeyValuePair<string, object?>[] tags = [new(CacheMetrics.DatabaseTag, databaseName)];
        meter.CreateObservableCounter(CacheMetrics.Hits, () => new Measurement<long>(_hits.Sum(), tags),
            "{hit}", "Document reads answered from the cache.");
        meter.CreateObservableCounter(CacheMetrics.Misses, () => new Measurement<long>(_misses.Sum(), tags),
            "{miss}", "Document reads that deserialized BSON.");
        meter.CreateObservableCounter(CacheMetrics.Evictions, () => new Measurement<long>(Volatile.Read(ref _evictions), tags),
            "{entry}", "Cached documents evicted to stay within the size limit.");
        meter.CreateObservableGauge(CacheMetrics.Entries, () => new Measurement<long>(Volatile.Read(ref _count), tags),
            "{entry}", "Documents in the cache.");
        meter.CreateObservableGauge(CacheMetrics.Bytes, () => new Measurement<long>(Volatile.Read(ref _bytes), tags),
            "By", "Estimated bytes the cached documents keep alive.");
        meter.CreateObservableGauge(CacheMetrics.LimitBytes, () => new Measurement<long>(LimitBytes, tags),
            "By", "The cache's size limit.");
    }
}
