using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>
/// Searchers are refreshed on a thread of their own while the indexer goes on: queries never go back, waited
/// queries see every document, and a refresh that fails is handled as a failed batch would be.
/// </summary>
public sealed class IndexRefresherTests
{
    private static readonly TimeSpan s_bound = TimeSpan.FromSeconds(60); // a bound on a busy machine, not a speed claim

    private static void PutCarts(TestIndexes db, int from, int count) =>
        db.Documents.Batch([.. Enumerable.Range(from, count).Select(i => BatchCommand.Put($"carts/{i}", SeedCart.Data, SeedCart.Metadata))]);

    private static QueryResult Unwaited(TestIndexes db) =>
        db.Indexes.Query(TestDefinitions.ByEntityName, new IndexQuery { Query = "Tag:Item", PageSize = 0 });

    [Fact]
    public async Task Queries_during_a_bulk_load_never_see_fewer_documents_or_an_older_etag_and_end_with_every_document()
    {
        using var db = new TestIndexes(batchSize: 256, refreshInterval: TimeSpan.FromMilliseconds(5));
        var writer = Task.Run(() =>
        {
            for (var batch = 0; batch < 40; batch++)
                PutCarts(db, batch * 250, 250);
        });
        var (lastTotal, lastEtag) = (0L, 0L);
        while (!writer.IsCompleted)
        {
            var page = Unwaited(db);
            Assert.True(page.TotalResults >= lastTotal, $"{page.TotalResults} documents after {lastTotal}");
            Assert.True(page.IndexEtag >= lastEtag, $"index etag {page.IndexEtag} after {lastEtag}");
            Assert.True(page.TotalResults <= 10_000);
            (lastTotal, lastEtag) = (page.TotalResults, page.IndexEtag);
        }
        await writer;

        Assert.Equal(10_000, db.Query(TestDefinitions.ByEntityName, "Tag:Item", pageSize: 0).TotalResults);
        Assert.Equal(10_000, db.Indexes.GetStatistics(TestDefinitions.ByEntityName).DocumentCount);
    }

    [Fact]
    public void A_refresh_that_fails_is_the_index_failure_until_refreshes_pass_and_then_queries_see_every_document()
    {
        var failing = true;
        using var db = new TestIndexes(batchSize: 16, beforeRefresh: name =>
        {
            if (Volatile.Read(ref failing) && name == TestDefinitions.ByEntityName)
                throw new IOException("No space left on device (refreshing the searchers)");
        });
        PutCarts(db, 0, 40);

        var deadline = DateTime.UtcNow + s_bound;
        while (db.Indexes.GetStatistics(TestDefinitions.ByEntityName).FailingSince is null)
        {
            Assert.True(DateTime.UtcNow < deadline, "the failing refresh never became the index's failure");
            Thread.Sleep(10);
        }
        var failed = db.Indexes.GetStatistics(TestDefinitions.ByEntityName);
        Assert.NotNull(failed.FailingSince);
        Assert.Contains("No space left on device", failed.LastError?.Message, StringComparison.Ordinal);
        Assert.Equal(0, Unwaited(db).TotalResults);

        Volatile.Write(ref failing, false);

        Assert.Equal(40, db.Query(TestDefinitions.ByEntityName, "Tag:Item", pageSize: 0).TotalResults);
        deadline = DateTime.UtcNow + s_bound;
        while (db.Indexes.GetStatistics(TestDefinitions.ByEntityName).FailingSince is not null)
        {
            Assert.True(DateTime.UtcNow < deadline, "the index still failed after refreshes passed again");
            Thread.Sleep(10);
        }
        Assert.Null(db.Indexes.GetStatistics(TestDefinitions.ByEntityName).FailingSince);
    }
}
