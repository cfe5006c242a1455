using Microsoft.Extensions.Time.Testing;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.MapReduce;

/// <summary>
/// A quiet indexer (nothing new for a moment) refreshes a built-in index at once but a map/reduce index only at its
/// interval (<see cref="Reducer.RefreshIntervals"/> refresh intervals): a bulk insert is quiet between its
/// transactions, and each refresh of a map/reduce index rewrites every group reduced since the last.
/// </summary>
public sealed class MapReduceRefreshTests : IDisposable
{
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 27, 6, 0, 0, TimeSpan.Zero));
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    private DocumentIndex Create(IndexDefinition definition) =>
        DocumentIndex.CreateEmpty(definition, new IndexingOptions
        {
            DataDirectory = Path.Combine(_db.Directory, "refresh"),
            TimeProvider = _clock,
            RefreshInterval = TimeSpan.FromMilliseconds(25),
        });

    private void Apply(DocumentIndex index, long after)
    {
        using var batch = IndexingBatch.Read(_db.Documents, after, _db.Documents.LastEtag, 100, json: true);
        Assert.True(index.Apply(batch, _clock.GetUtcNow()));
    }

    [Fact]
    public void A_quiet_indexer_refreshes_a_map_reduce_index_only_at_its_interval_and_a_built_in_one_at_once()
    {
        _db.Put("orders/1", """{"Customer": "c/1", "Lines": [{"Price": 10, "Quantity": 1}]}""", "Order");
        using var reduce = Create(MapReduceTests.TotalsByCustomer);
        using var builtIn = Create(BuiltInIndexes.DocumentsByEntityName);
        Apply(reduce, 0);
        Apply(builtIn, 0);
        Assert.True(reduce.RefreshDue(now: true));
        Assert.True(reduce.Refresh());
        Assert.True(builtIn.RefreshDue(now: true));
        Assert.True(builtIn.Refresh());
        var first = _db.Documents.LastEtag;

        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 5, "Quantity": 1}]}""", "Order");
        Apply(reduce, first);
        Apply(builtIn, first);
        // Within both intervals, so only the quiet rule can make the built-in index's refresh due.
        _clock.Advance(TimeSpan.FromMilliseconds(10));

        Assert.False(builtIn.RefreshDue(now: false, quiet: false));
        Assert.False(reduce.RefreshDue(now: false, quiet: true));
        Assert.True(builtIn.RefreshDue(now: false, quiet: true));

        _clock.Advance(TimeSpan.FromMilliseconds(25 * Reducer.RefreshIntervals));

        Assert.True(reduce.RefreshDue(now: false, quiet: true));
        Assert.True(reduce.Refresh());
        Assert.Equal(_db.Documents.LastEtag, reduce.State.LastIndexedEtag);
    }
}
