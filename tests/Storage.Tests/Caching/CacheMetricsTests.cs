using System.Diagnostics.Metrics;
using RavenLite.Storage.Caching;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>The cache's counters, published as System.Diagnostics.Metrics instruments.</summary>
public sealed class CacheMetricsTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Counters_are_published_on_the_RavenLite_meter_tagged_with_the_database()
    {
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path, cacheSizeBytes: 1L << 20);
        store.PutSeedCart("carts/1");
        store.Get("carts/1");
        store.Get("carts/1");
        _ = store.Get("carts/1")!.Data;

        var measured = Collect(Path.GetFullPath(_dir.Path));
        var stats = store.GetCacheStatistics();

        Assert.Equal(stats.Hits, measured[CacheMetrics.Hits]);
        Assert.Equal(stats.Misses, measured[CacheMetrics.Misses]);
        Assert.Equal(stats.Evictions, measured[CacheMetrics.Evictions]);
        Assert.Equal(stats.Refused, measured[CacheMetrics.Refused]);
        Assert.Equal(stats.Entries, measured[CacheMetrics.Entries]);
        Assert.Equal(stats.Bytes, measured[CacheMetrics.Bytes]);
        Assert.Equal(1L << 20, measured[CacheMetrics.LimitBytes]);
        Assert.Equal((2, 1, 1), (measured[CacheMetrics.Hits], measured[CacheMetrics.Misses], measured[CacheMetrics.Entries]));
    }

    [Fact]
    public void A_closed_store_stops_reporting()
    {
        var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        store.PutSeedCart("carts/1");
        store.Get("carts/1");
        store.Dispose();

        Assert.Empty(Collect(Path.GetFullPath(_dir.Path)));
    }

    /// <summary>Reads every RavenLite instrument once, keeping the measurements tagged with <paramref name="database"/>.</summary>
    private static Dictionary<string, long> Collect(string database)
    {
        var measured = new Dictionary<string, long>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == CacheMetrics.MeterName)
                l.EnableMeasurementEvents(instrument);
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == CacheMetrics.DatabaseTag && (string?)tag.Value == database)
                    measured[instrument.Name] = value;
            }
        });
        listener.Start();
        listener.RecordObservableInstruments();
        return measured;
    }
}
