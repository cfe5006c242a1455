using System.Text.Json;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Microsoft.Extensions.Time.Testing;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.MapReduce;

/// <summary>
/// A refresh takes a map/reduce index's results under the write lock and writes them after letting it go, so the
/// indexer goes on meanwhile (<see cref="Reducer.TakeUnwrittenResults"/>): what it shows must be the state it took, and a
/// commit must hold every result it took, or none after a failure.
/// </summary>
public sealed class MapReduceResultWriteTests : IDisposable
{
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 27, 9, 0, 0, TimeSpan.Zero));
    private readonly TestIndexes _db = new();
    private Action<string>? _beforeRefresh;

    public void Dispose() => _db.Dispose();

    private IndexingOptions Options => new()
    {
        DataDirectory = Path.Combine(_db.Directory, "results"),
        TimeProvider = _clock,
        CommitEveryBatches = 1_000,
        BeforeRefresh = name => _beforeRefresh?.Invoke(name),
    };

    private DocumentIndex Create() => DocumentIndex.CreateEmpty(MapReduceTests.TotalsByCustomer, Options);

    private DocumentIndex Reopen() => DocumentIndex.Open(MapReduceTests.TotalsByCustomer, Options, _ => { }, logMissing: false);

    private void Apply(DocumentIndex index)
    {
        using var batch = IndexingBatch.Read(_db.Documents, index.WrittenEtag, _db.Documents.LastEtag, 100, json: true);
        Assert.True(index.Apply(batch, _clock.GetUtcNow()));
    }

    private void Order(string key, string customer, int price) =>
        _db.Put(key, $$"""{"Customer": "{{customer}}", "Lines": [{"Price": {{price}}, "Quantity": 1}]}""", "Order");

    /// <summary>What queries see of a group: its Lines (count) and Total, or null when it has no result.</summary>
    private static (int Lines, decimal Total)? Seen(DocumentIndex index, string customer)
    {
        var searcher = index.Lucene.Searchers.Acquire();
        try
        {
            var top = searcher.Search(new TermQuery(new Term(Reducer.ResultField, customer)), 1);
            if (top.TotalHits == 0)
                return null;
            var result = Reducer.Load(searcher.IndexReader, [new KnownVersion(customer, 0)], [top.ScoreDocs[0].Doc])[0]!;
            return (result.Data.GetProperty("Lines").GetInt32(), result.Data.GetProperty("Total").GetDecimal());
        }
        finally
        {
            index.Lucene.Searchers.Release(searcher);
        }
    }

    [Fact]
    public void A_batch_is_applied_while_a_refresh_writes_results_and_the_refresh_shows_the_state_it_took()
    {
        var index = Create();
        try
        {
            Order("orders/1", "c/1", 10);
            Apply(index);
            var firstEtag = index.WrittenEtag;
            Task? applied = null;
            // On the refresher's side, after the results were taken and before they are written: the indexer applies
            // the next batch, touching the same group, without waiting for the refresh.
            _beforeRefresh = _ =>
            {
                _beforeRefresh = null;
                Order("orders/2", "c/1", 5);
                applied = Task.Run(() => Apply(index));
                Assert.True(applied.Wait(TimeSpan.FromSeconds(30)), "The batch waited for the refresh writing results.");
            };
            Assert.True(index.RefreshDue(now: true));
            Assert.True(index.Refresh());

            Assert.NotNull(applied);
            Assert.Equal(firstEtag, index.LastIndexedEtag);
            Assert.Equal((1, 10m), Seen(index, "c/1"));

            Assert.True(index.RefreshDue(now: true));
            Assert.True(index.Refresh());
            Assert.Equal((2, 15m), Seen(index, "c/1"));
        }
        finally
        {
            index.Retire(deleteFolder: false);
        }
    }

    [Fact]
    public void A_commit_after_a_refresh_failed_writing_results_rolls_back_instead_of_committing_entries_without_them()
    {
        var index = Create();
        Order("orders/1", "c/1", 10);
        Order("orders/2", "c/2", 7);
        Apply(index);
        _beforeRefresh = _ => throw new IOException("disk full (test)");
        Assert.True(index.RefreshDue(now: true));
        Assert.False(index.Refresh());
        _beforeRefresh = null;

        // The results taken were never written: committing the map entries without them would lose them for good.
        Assert.Throws<IOException>(index.CommitNow);
        index.Abandon();

        var reopened = Reopen();
        try
        {
            Assert.Equal(0, reopened.CommittedEtag);
            Apply(reopened);
            Assert.True(reopened.RefreshDue(now: true));
            Assert.True(reopened.Refresh());
            Assert.Equal((1, 10m), Seen(reopened, "c/1"));
            Assert.Equal((1, 7m), Seen(reopened, "c/2"));
        }
        finally
        {
            reopened.Retire(deleteFolder: false);
        }
    }

    [Fact]
    public async Task A_commit_started_while_a_refresh_writes_results_waits_for_them_and_holds_them()
    {
        var index = Create();
        Order("orders/1", "c/1", 10);
        Apply(index);
        Task? committed = null;
        var waitedFor = false;
        _beforeRefresh = _ =>
        {
            _beforeRefresh = null;
            Order("orders/2", "c/2", 3);
            Apply(index);
            committed = Task.Run(index.CommitNow);
            // A commit that did not wait would be done by now, without the results this refresh took for c/1; one that
            // waits goes on once they are written (the bounded wait only gives a wrong one the time to show itself).
            waitedFor = !committed.Wait(TimeSpan.FromMilliseconds(500));
        };
        Assert.True(index.RefreshDue(now: true));
        Assert.True(index.Refresh());
        Assert.NotNull(committed);
        await committed.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(waitedFor);
        index.Abandon();

        var reopened = Reopen();
        try
        {
            Assert.Equal(_db.Documents.LastEtag, reopened.CommittedEtag);
            Assert.Equal((1, 10m), Seen(reopened, "c/1"));
            Assert.Equal((1, 3m), Seen(reopened, "c/2"));
        }
        finally
        {
            reopened.Retire(deleteFolder: false);
        }
    }
}
