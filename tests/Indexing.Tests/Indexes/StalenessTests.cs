using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class StalenessTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 100);

    public void Dispose() => _db.Dispose();

    private void PutUsers(int count) =>
        _db.Documents.Batch(Enumerable.Range(0, count)
            .Select(i => BatchCommand.Put($"users/{i}", DocumentContent.FromJson($$"""{"n":{{i}}}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"User"}""")))
            .ToList());

    [Fact]
    public void A_query_right_after_a_write_says_it_is_stale_and_waiting_returns_the_new_documents()
    {
        using (_db.Indexes.PauseIndexing())
        {
            PutUsers(500);
            var stale = _db.Indexes.Query(TestDefinitions.ByEntityName, new IndexQuery { Query = "Tag:User" });
            Assert.True(stale.IsStale);
            Assert.True(stale.IndexEtag < stale.DatabaseEtag);
            Assert.Equal(0, stale.TotalResults);
        }

        var fresh = _db.Indexes.Query(TestDefinitions.ByEntityName,
            new IndexQuery { Query = "Tag:User", WaitForNonStaleResults = true, PageSize = 1024 });

        Assert.False(fresh.IsStale);
        Assert.Equal(500, fresh.TotalResults);
        Assert.Equal(500, fresh.Results.Count);
        Assert.Equal(fresh.DatabaseEtag, fresh.IndexEtag);
        Assert.NotNull(fresh.IndexTimestamp);
    }

    [Fact]
    public void A_query_that_a_stale_index_cannot_answer_in_time_names_the_index_and_how_far_behind_it_is()
    {
        using (_db.Indexes.PauseIndexing())
        {
            PutUsers(10);
            var ex = Assert.Throws<TimeoutException>(() => _db.Indexes.Query(TestDefinitions.ByEntityName,
                new IndexQuery { Query = "Tag:User", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMilliseconds(100) }));

            Assert.Contains("'Raven/DocumentsByEntityName'", ex.Message, StringComparison.Ordinal);
            Assert.Contains("indexed up to etag 0", ex.Message, StringComparison.Ordinal);
            Assert.Contains("at etag 10", ex.Message, StringComparison.Ordinal);
            Assert.Contains("10 etags behind", ex.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_deleted_document_leaves_every_index_and_its_tombstone_is_purged()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: "Long"));
        PutUsers(300);
        Assert.Equal(300, _db.Query("Numbers", "Value:[0 TO *]").TotalResults);

        _db.Documents.Delete("users/7");
        _db.Documents.Delete("USERS/8");

        Assert.Empty(TestIndexes.Keys(_db.Query("Numbers", "Value:7")));
        Assert.Empty(TestIndexes.Keys(_db.Query("Numbers", "Value:8")));
        Assert.Equal(298, _db.Query("Numbers", "*:*").TotalResults);
        Assert.Equal(298, _db.Query(TestDefinitions.ByEntityName, "Tag:User").TotalResults);
        Assert.All(_db.Indexes.GetStatistics(), s => Assert.Equal(298, s.DocumentCount));
        Assert.True(SpinWait.SpinUntil(() => _db.Documents.GetTombstonesAfterEtag(0, 10).Count == 0, TimeSpan.FromSeconds(10)),
            "tombstones every index has passed are purged");
    }

    [Fact]
    public void An_overwritten_document_is_indexed_once_and_the_record_of_what_it_replaced_is_purged_without_any_delete()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: "Long"));
        PutUsers(50);
        Assert.Equal(50, _db.Query("Numbers", "Value:[0 TO *]").TotalResults);

        _db.Put("users/7", """{"n": 1007}""", "User");
        _db.Put("USERS/7", """{"n": 2007}""", "User");
        Assert.NotEmpty(_db.Documents.GetReplacementsAfterEtag(0, long.MaxValue, 10));

        Assert.Equal(["USERS/7"], TestIndexes.Keys(_db.Query("Numbers", "Value:2007")));
        Assert.Empty(TestIndexes.Keys(_db.Query("Numbers", "Value:1007")));
        Assert.Empty(TestIndexes.Keys(_db.Query("Numbers", "Value:7")));
        Assert.Equal(50, _db.Query("Numbers", "*:*").TotalResults);
        Assert.True(SpinWait.SpinUntil(() => _db.Documents.GetReplacementsAfterEtag(0, long.MaxValue, 10).Count == 0, TimeSpan.FromSeconds(10)),
            "replacement records every index has passed are purged, with no tombstone to start a purge");
    }

    [Fact]
    public void A_deleted_and_re_put_document_is_indexed_once_with_its_new_content()
    {
        using (_db.Indexes.PauseIndexing())
        {
            _db.Put("users/1", """{"n":1}""", "User");
            _db.Documents.Delete("users/1");
            _db.Put("users/1", """{"n":2}""", "Admin");
        }

        Assert.Empty(TestIndexes.Keys(_db.Query(TestDefinitions.ByEntityName, "Tag:User")));
        Assert.Equal(["users/1"], TestIndexes.Keys(_db.Query(TestDefinitions.ByEntityName, "Tag:Admin")));
        Assert.Equal(1, _db.Indexes.GetStatistics(TestDefinitions.ByEntityName).DocumentCount);
    }

    [Fact]
    public void Statistics_report_progress_and_staleness()
    {
        using (_db.Indexes.PauseIndexing())
        {
            PutUsers(3);
            var stale = _db.Indexes.GetStatistics(TestDefinitions.ByEntityName);
            Assert.True(stale.IsStale);
            Assert.Equal(3, stale.DatabaseLastEtag);
            Assert.True(stale.IsBuiltIn);
        }
        _db.Query(TestDefinitions.ByEntityName, "*:*");
        var stats = _db.Indexes.GetStatistics(TestDefinitions.ByEntityName);
        Assert.False(stats.IsStale);
        Assert.Equal((3, 3, 3), (stats.DocumentCount, stats.LastIndexedEtag, stats.DocumentsIndexedSinceOpen));
        Assert.Equal(0, stats.ErrorCount);
    }
}
