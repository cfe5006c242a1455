using System.Diagnostics;
using System.Diagnostics.Metrics;
using RavenLite.Indexing;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// Every query result carries <see cref="QueryTimings"/>: parts that fit in the total, and document counts that say
/// where the page came from. Durations are never compared with a figure, only with each other.
/// </summary>
public sealed class QueryTimingsTests
{
    [Fact]
    public void Timings_parts_fit_in_the_total_and_the_counts_cover_every_hit()
    {
        using var db = new IndexingDatabase();
        for (var i = 1; i <= 5; i++)
            db.Db.Put($"items/{i}", IndexingDatabase.Json("""{"v": 1}"""), IndexingDatabase.Entity("Item"));
        db.Db.Delete("items/5");

        var result = db.Query(IndexingDatabase.ByEntityName, "Tag:Item");
        var t = result.Timings;

        Assert.Equal(4, result.Results.Count);
        Assert.Equal(result.Results.Count + result.SkippedResults, t.CachedDocuments + t.StorageDocuments);
        Assert.True(t.TotalMicroseconds > 0);
        foreach (var part in new[] { t.WaitMicroseconds, t.ParseMicroseconds, t.SearchMicroseconds, t.LoadMicroseconds, t.StorageMicroseconds })
        {
            Assert.InRange(part, 0, t.TotalMicroseconds);
        }
        Assert.InRange(t.StorageMicroseconds, 0, t.LoadMicroseconds);
        Assert.InRange(t.WaitMicroseconds + t.ParseMicroseconds + t.SearchMicroseconds + t.LoadMicroseconds, 0, t.TotalMicroseconds);
    }

    [Fact]
    public void A_warm_query_on_a_caught_up_index_reads_every_document_from_the_cache()
    {
        using var db = new IndexingDatabase();
        for (var i = 1; i <= 3; i++)
            db.Db.Put($"items/{i}", IndexingDatabase.Json("""{"v": 1}"""), IndexingDatabase.Entity("Item"));
        db.Query(IndexingDatabase.ByEntityName, "Tag:Item");

        var warm = db.Query(IndexingDatabase.ByEntityName, "Tag:Item").Timings;

        Assert.Equal((3, 0), (warm.CachedDocuments, warm.StorageDocuments));
        Assert.Equal(0, warm.StorageMicroseconds);
    }

    [Fact]
    public void With_the_cache_off_every_document_is_read_from_storage()
    {
        using var db = new IndexingDatabase(cacheEnabled: false);
        for (var i = 1; i <= 3; i++)
            db.Db.Put($"items/{i}", IndexingDatabase.Json("""{"v": 1}"""), IndexingDatabase.Entity("Item"));
        db.Query(IndexingDatabase.ByEntityName, "Tag:Item");

        var again = db.Query(IndexingDatabase.ByEntityName, "Tag:Item").Timings;

        Assert.Equal((0, 3), (again.CachedDocuments, again.StorageDocuments));
        Assert.True(again.StorageMicroseconds > 0);
    }

    [Fact]
    public void A_query_records_its_duration_on_the_RavenLite_meter_and_a_span_on_the_RavenLite_source()
    {
        using var db = new IndexingDatabase();
        db.Db.Put("items/1", IndexingDatabase.Json("""{"v": 1}"""), IndexingDatabase.Entity("Item"));
        var database = Path.GetFullPath(db.Directory);
        var durations = new List<double>();
        using var meters = new MeterListener();
        meters.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == QueryTelemetry.SourceName && instrument.Name == QueryTelemetry.Duration)
                listener.EnableMeasurementEvents(instrument);
        };
        meters.SetMeasurementEventCallback<double>((_, value, tags, _) =>
        {
            var mine = false;
            foreach (var tag in tags)
                mine |= tag.Key == RavenLite.Storage.Caching.CacheMetrics.DatabaseTag && (string?)tag.Value == database;
            if (mine)
            {
                lock (durations)
                    durations.Add(value);
            }
        });
        meters.Start();
        using var parentSource = new ActivitySource("RavenLite.Tests.Timings");
        var spans = new List<Activity>();
        using var activities = new ActivityListener
        {
            ShouldListenTo = source => source.Name is QueryTelemetry.SourceName or "RavenLite.Tests.Timings",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                lock (spans)
                    spans.Add(activity);
            },
        };
        ActivitySource.AddActivityListener(activities);

        string parentId;
        using (var parent = parentSource.StartActivity("test")!)
        {
            parentId = parent.Id!;
            db.Query(IndexingDatabase.ByEntityName, "Tag:Item");
        }

        lock (durations)
            Assert.Single(durations, d => d > 0);
        Activity span;
        lock (spans)
            span = Assert.Single(spans, s => s.ParentId == parentId && s.OperationName == "ravenlite.query");
        Assert.Equal(IndexingDatabase.ByEntityName, span.GetTagItem(QueryTelemetry.IndexTag));
        Assert.Equal(1, span.GetTagItem("ravenlite.query.results"));
    }
}
