using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// Which version of a document a query returns: a caught-up index knows each document's current etag and serves
/// cached ones by it; a stale index does not, so documents are read as they are now.
/// </summary>
public sealed class QueryDocumentVersionTests : IDisposable
{
    private static readonly DocumentContent s_item = DocumentContent.FromJson("""{"Raven-Entity-Name":"Item"}""");
    private readonly IndexingDatabase _db = new();

    public void Dispose() => _db.Dispose();

    private void Put(string key, int version) => _db.Db.Put(key, DocumentContent.FromJson($$"""{"v":{{version}}}"""), s_item);

    private QueryResult Query(bool wait = true) => _db.Db.Query(IndexingDatabase.ByEntityName,
        new IndexQuery { Query = "Tag:Item", WaitForNonStaleResults = wait });

    [Fact]
    public void A_caught_up_query_serves_the_cached_documents()
    {
        Put("items/1", 1);
        Put("items/2", 1);
        var first = Query();
        var before = _db.Db.GetStatistics().Cache;

        var second = Query();

        var after = _db.Db.GetStatistics().Cache;
        Assert.False(second.IsStale);
        Assert.Equal(first.Results, second.Results); // the same shared instances
        Assert.Equal(before.Hits + 2, after.Hits);
        Assert.Equal(before.Misses, after.Misses);
    }

    [Fact]
    public void A_caught_up_query_after_an_update_returns_the_new_version()
    {
        Put("items/1", 1);
        Assert.Equal(1, Query().Results.Single().Data.GetProperty("v").GetInt32());

        Put("items/1", 2);
        var result = Query();

        Assert.False(result.IsStale);
        Assert.Equal(2, result.Results.Single().Data.GetProperty("v").GetInt32());
    }

    [Fact]
    public void A_stale_query_returns_documents_as_they_are_now()
    {
        Put("items/1", 1);
        Query();
        using (_db.Db.Indexes.PauseIndexing())
        {
            Put("items/1", 2);

            var result = Query(wait: false);

            Assert.True(result.IsStale);
            Assert.Equal(2, result.Results.Single().Data.GetProperty("v").GetInt32());
        }
    }

    [Fact]
    public void A_caught_up_query_reads_a_document_no_longer_cached_from_storage()
    {
        Put("items/1", 1);
        Query();
        _db.Db.ClearCache();
        var before = _db.Db.GetStatistics().Cache;

        var result = Query();

        Assert.Equal(1, result.Results.Single().Data.GetProperty("v").GetInt32());
        Assert.Equal(before.Misses + 1, _db.Db.GetStatistics().Cache.Misses);
        Assert.Equal(before.Hits, _db.Db.GetStatistics().Cache.Hits);
    }
}
