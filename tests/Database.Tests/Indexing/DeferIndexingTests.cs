using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// A database opened with <see cref="DocumentDatabaseOptions.DeferIndexing"/> (a bulk load) stores and reads documents,
/// leaves its indexes where they were, says so to a waiting query at once, and catches up when opened without it.
/// </summary>
public sealed class DeferIndexingTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    private DocumentDatabase Open(bool deferIndexing) =>
        new(new DocumentDatabaseOptions { DataDirectory = _directory, MapSize = 256L << 20, DeferIndexing = deferIndexing });

    private static void PutCarts(DocumentDatabase db, int from, int count) =>
        db.Batch([.. Enumerable.Range(from, count).Select(i => BatchCommand.Put($"carts/{i}", IndexingDatabase.SeedData, IndexingDatabase.SeedMetadata))]);

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    [Fact]
    public void Documents_written_with_indexing_deferred_are_read_at_once_and_indexed_at_the_next_open()
    {
        using (var db = Open(deferIndexing: false))
        {
            PutCarts(db, 0, 10);
            Assert.Equal(10, db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true }).TotalResults);
        }

        using (var db = Open(deferIndexing: true))
        {
            PutCarts(db, 10, 2000);
            Assert.Equal(2010, db.GetStatistics().Documents);
            Assert.Equal(666, db.Get("carts/2009")!.Data.GetProperty("cartId").GetInt64());

            var stale = db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", PageSize = 0 });
            Assert.True(stale.IsStale);
            Assert.Equal(10, stale.TotalResults);
            var waited = Assert.Throws<TimeoutException>(() =>
                db.Query(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(5) }));
            Assert.Contains("Indexing is deferred", waited.Message, StringComparison.Ordinal);
        }

        using (var db = Open(deferIndexing: false))
        {
            var caughtUp = db.Query(IndexingDatabase.ByEntityName,
                new IndexQuery { Query = "Tag:Item", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(2) });
            Assert.Equal(2010, caughtUp.TotalResults);
        }
    }

    [Fact]
    public async Task A_waited_async_query_with_indexing_deferred_fails_at_once_but_one_on_an_index_with_nothing_to_do_answers()
    {
        using var db = Open(deferIndexing: true);
        var empty = await db.QueryAsync(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true });
        Assert.Equal(0, empty.TotalResults);

        PutCarts(db, 0, 5);

        var waited = await Assert.ThrowsAsync<TimeoutException>(() =>
            db.QueryAsync(IndexingDatabase.ByEntityName, new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(5) }));
        Assert.Contains("Indexing is deferred", waited.Message, StringComparison.Ordinal);
    }
}
