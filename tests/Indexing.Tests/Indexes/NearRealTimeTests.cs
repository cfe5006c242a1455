using Lucene.Net.Index;
using Lucene.Net.Store;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Persistence;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexes;

/// <summary>
/// Queries see each indexing batch as soon as it is indexed (the searcher is refreshed from the writer), while Lucene
/// commits come at their own cadence and on close; after a crash indexing resumes from the last commit.
/// </summary>
public sealed class NearRealTimeTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 16, neverCommitWhileOpen: true);

    public NearRealTimeTests() => _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);

    public void Dispose() => _db.Dispose();

    private long CommittedEtagOnDisk(string indexName)
    {
        using var directory = new NIOFSDirectory(new DirectoryInfo(Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName(indexName))));
        var commit = new SegmentInfos();
        commit.Read(directory);
        return CommitData.FromUserData(commit.UserData, 0, out _)!.State.LastIndexedEtag;
    }

    private void PutCarts(int from, int count) =>
        _db.Documents.Batch([.. Enumerable.Range(from, count).Select(i => BatchCommand.Put($"carts/{i}", SeedCart.Data, SeedCart.Metadata))]);

    [Fact]
    public void A_written_document_is_found_by_the_next_waited_query_before_any_commit()
    {
        _db.Put("carts/nrt", """{"cartId": 1, "itemList": [{"productId": 4711}]}""", "Item");

        Assert.Equal(["carts/nrt"], TestIndexes.Keys(_db.Query("Carts/ByProduct", "ProductId:4711")));
        Assert.Equal(["carts/nrt"], TestIndexes.Keys(_db.Query(TestDefinitions.ByEntityName, "Tag:Item")));
        Assert.Equal(0, CommittedEtagOnDisk("Carts/ByProduct"));
        Assert.Equal(0, CommittedEtagOnDisk(TestDefinitions.ByEntityName));
    }

    [Fact]
    public void Without_a_refresh_interval_due_queries_see_what_is_indexed_once_the_indexer_has_caught_up()
    {
        using var db = new TestIndexes(batchSize: 16, refreshInterval: TimeSpan.FromHours(1));
        db.Documents.Batch([.. Enumerable.Range(0, 100).Select(i => BatchCommand.Put($"carts/{i}", SeedCart.Data, SeedCart.Metadata))]);
        Assert.Equal(100, db.Query(TestDefinitions.ByEntityName, "Tag:Item", pageSize: 0).TotalResults);

        db.Put("carts/late", """{"cartId": 1}""", "Item");
        var lastEtag = db.Documents.LastEtag;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (db.Indexes.GetStatistics(TestDefinitions.ByEntityName).LastIndexedEtag < lastEtag)
        {
            Assert.True(DateTime.UtcNow < deadline, "the indexer did not reach the last write within 30 s");
            Thread.Sleep(10);
        }

        var unwaited = db.Indexes.Query(TestDefinitions.ByEntityName, new IndexQuery { Query = "Tag:Item", PageSize = 0 });
        Assert.False(unwaited.IsStale);
        Assert.Equal(101, unwaited.TotalResults);
    }

    [Fact]
    public void A_clean_close_commits_so_the_reopened_indexes_index_nothing_again()
    {
        PutCarts(0, 100);
        Assert.Equal(100, _db.Query("Carts/ByProduct", "ProductId:42").TotalResults);
        var lastEtag = _db.Documents.LastEtag;

        _db.Reopen();

        Assert.Equal(lastEtag, CommittedEtagOnDisk("Carts/ByProduct"));
        Assert.Equal(100, _db.Query("Carts/ByProduct", "ProductId:42").TotalResults);
        Assert.All(_db.Indexes.GetStatistics(), s => Assert.Equal(0, s.DocumentsIndexedSinceOpen));
    }

    [Fact]
    public void After_a_crash_indexing_resumes_from_the_last_commit_and_holds_every_document_once()
    {
        PutCarts(0, 50);
        Assert.Equal(50, _db.Query("Carts/ByProduct", "ProductId:42").TotalResults);
        _db.Reopen(); // commits the first 50
        var committed = CommittedEtagOnDisk("Carts/ByProduct");
        PutCarts(50, 50);
        _db.Documents.Delete("carts/3");
        PutCarts(10, 5); // new versions of documents the last commit holds
        Assert.Equal(99, _db.Query("Carts/ByProduct", "ProductId:42").TotalResults);

        _db.Crash();
        Assert.Equal(committed, CommittedEtagOnDisk("Carts/ByProduct"));
        _db.Open();

        var page = _db.Query("Carts/ByProduct", "ProductId:42", pageSize: 200);
        Assert.Equal(99, page.TotalResults);
        Assert.Equal(99, page.Results.Select(d => d.Key).Distinct(StringComparer.OrdinalIgnoreCase).Count());
        Assert.DoesNotContain("carts/3", page.Results.Select(d => d.Key));
        Assert.Equal(99, _db.Query(TestDefinitions.ByEntityName, "Tag:Item", pageSize: 0).TotalResults);
        // Replayed from the last commit: the 50 new carts, the 5 new versions, and the deletion.
        Assert.Equal(55, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
        Assert.All(_db.Indexes.GetStatistics(), s => Assert.Equal(99, s.DocumentCount));
    }
}
