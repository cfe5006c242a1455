using System.Diagnostics.Metrics;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Caching;

public sealed class EntityCacheMetricsTests
{
    [Fact]
    public async Task Hits_misses_and_entries_are_published_on_the_RavenLite_meter_tagged_with_the_store()
    {
        await using var fixture = EmbeddedStoreFixture.Start();
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(new Cart { Customer = "metrics" }, "carts/1");
            session.SaveChanges();
        }
        for (var i = 0; i < 3; i++)
        {
            using var session = fixture.Store.OpenSession();
            session.Load<Cart>("carts/1");
        }
        var measured = new Dictionary<string, long>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == EntityCacheMetrics.MeterName && instrument.Name.StartsWith("ravenlite.entity_cache.", StringComparison.Ordinal))
                l.EnableMeasurementEvents(instrument);
        };
        void Record(Instrument instrument, long value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            foreach (var tag in tags)
            {
                if (tag.Key == EntityCacheMetrics.StoreTag && Equals(tag.Value, fixture.Store.Database!.Options.DataDirectory))
                    measured[instrument.Name] = value;
            }
        }
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        listener.SetMeasurementEventCallback<int>((instrument, value, tags, _) => Record(instrument, value, tags));
        listener.Start();
        listener.RecordObservableInstruments();
        Assert.Equal(2, measured[EntityCacheMetrics.Hits]);
        Assert.Equal(1, measured[EntityCacheMetrics.Misses]);
        Assert.Equal(1, measured[EntityCacheMetrics.Entries]);
        Assert.True(measured[EntityCacheMetrics.Bytes] > 0);
    }
}
