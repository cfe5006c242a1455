using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

public sealed class StalenessTests : IDisposable
{
    private readonly IndexingDatabase _db = new();

    public void Dispose() => _db.Dispose();

    private void PutCarts(int from, int count) =>
        _db.Db.Batch(Enumerable.Range(from, count).Select(i => BatchCommand.Put($"carts/{i}", IndexingDatabase.SeedData, IndexingDatabase.SeedMetadata)).ToList());

    [Fact]
    public void Right_after_a_batch_put_a_query_may_be_stale_and_says_so()
    {
        PutCarts(0, 2000);

        var result = _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", PageSize = 0 });

        // Whether the indexer got there first is a race; what the result says must be true either way.
        Assert.Equal(result.IndexEtag < result.DatabaseEtag, result.IsStale);
        if (!result.IsStale)
            Assert.Equal(2000, result.TotalResults);
    }

    [Fact]
    public void A_stale_index_says_so_and_waiting_returns_the_new_documents()
    {
        PutCarts(0, 10);
        _db.Query(IndexingDatabase.ByEntityName, "Tag:Item");
        using (_db.Db.Indexes.PauseIndexing())
        {
            PutCarts(10, 1000);
            var stale = _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item" });
            Assert.True(stale.IsStale);
            Assert.Equal(10, stale.TotalResults);
        }

        var fresh = _db.Query(IndexingDatabase.ByEntityName, "Tag:Item", pageSize: 1024);

        Assert.False(fresh.IsStale);
        Assert.Equal(1010, fresh.TotalResults);
        Assert.Contains(fresh.Results, d => d.Key == "carts/1009");
    }

    [Fact]
    public void Waiting_past_the_timeout_is_a_TimeoutException_naming_the_index_and_the_lag()
    {
        using (_db.Db.Indexes.PauseIndexing())
        {
            PutCarts(0, 5);
            var ex = Assert.Throws<TimeoutException>(() => _db.Db.Query(IndexingDatabase.ByEntityName,
                new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMilliseconds(50) }));
            Assert.Contains(IndexingDatabase.ByEntityName, ex.Message, StringComparison.Ordinal);
            Assert.Contains("5 etags behind", ex.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Waiting_asynchronously_returns_once_the_index_has_caught_up()
    {
        Task wait;
        using (_db.Db.Indexes.PauseIndexing())
        {
            PutCarts(0, 300);
            wait = _db.Db.WaitForNonStaleAsync(IndexingDatabase.ByEntityName, TimeSpan.FromSeconds(30));
            Assert.False(wait.IsCompleted); // the indexer is held back, so the wait cannot have finished
        }
        await wait;

        var result = _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", PageSize = 1024 });
        Assert.False(result.IsStale);
        Assert.Equal(300, result.TotalResults);
    }

    [Fact]
    public async Task Waiting_asynchronously_past_the_timeout_is_a_TimeoutException_naming_the_lag()
    {
        using (_db.Db.Indexes.PauseIndexing())
        {
            PutCarts(0, 5);
            var ex = await Assert.ThrowsAsync<TimeoutException>(() =>
                _db.Db.WaitForNonStaleAsync(IndexingDatabase.ByEntityName, TimeSpan.FromMilliseconds(50)));
            Assert.Contains("5 etags behind", ex.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void After_a_delete_the_document_leaves_every_index()
    {
        _db.Db.PutIndex(IndexDefinition.FromJson("""{"Name": "Carts/ByProduct", "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"}]}"""));
        PutCarts(0, 3);
        Assert.Equal(3, _db.Query("Carts/ByProduct", "ProductId:42").TotalResults);

        _db.Db.Delete("carts/1");

        Assert.Equal(["carts/0", "carts/2"], _db.Query("Carts/ByProduct", "ProductId:42").Results.Select(d => d.Key));
        Assert.Equal(["carts/0", "carts/2"], _db.Query(IndexingDatabase.ByEntityName, "Tag:Item").Results.Select(d => d.Key));
        Assert.All(_db.Db.GetIndexStatistics(), s => Assert.Equal((2, false), (s.DocumentCount, s.IsStale)));
    }

    [Fact]
    public void A_hit_whose_document_is_gone_when_the_page_loads_is_skipped_and_counted()
    {
        PutCarts(0, 3);
        _db.Query(IndexingDatabase.ByEntityName, "Tag:Item");
        using (_db.Db.Indexes.PauseIndexing())
        {
            _db.Db.Delete("carts/1");
            var result = _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item" });

            Assert.Equal(3, result.TotalResults);
            Assert.Equal(1, result.SkippedResults);
            Assert.Equal(["carts/0", "carts/2"], result.Results.Select(d => d.Key));
            Assert.True(result.IsStale);
        }
    }
}
