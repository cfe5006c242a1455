using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

/// <summary>
/// The warm fast path: a caught-up query takes each hit's key and indexed etag from the index and serves the cached
/// document of that version without reading storage at all. Proved without timing: once the stored records are made
/// unreadable, a storage read would throw, and the caught-up query still answers from the cache.
/// </summary>
public sealed class WarmPathTests : IDisposable
{
    private readonly IndexingDatabase _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void A_caught_up_query_serves_cached_documents_without_any_storage_read()
    {
        var keys = new[] { "items/1", "items/2", "items/3" };
        foreach (var key in keys)
            _db.Db.Put(key, IndexingDatabase.Json("""{"v": 1}"""), IndexingDatabase.Entity("Item"));
        var warm = _db.Query(IndexingDatabase.ByEntityName, "Tag:Item");

        MakeUnreadable(keys);
        Assert.ThrowsAny<Exception>(() => _db.Db.Documents.Get(keys)); // storage reads now fail

        var again = _db.Query(IndexingDatabase.ByEntityName, "Tag:Item");
        Assert.False(again.IsStale);
        Assert.Equal(warm.Results, again.Results); // the same cached instances
        Assert.Equal(keys, again.Results.Select(d => d.Key));
    }

    /// <summary>Replaces each stored record with bytes shorter than a record's header (the engine write moves no etag).</summary>
    private void MakeUnreadable(IEnumerable<string> keys)
    {
        var engine = _db.Db.Documents.Engine;
        var table = engine.OpenTable("documents");
        engine.Write(tx =>
        {
            foreach (var key in keys)
                tx.Put(table, System.Text.Encoding.UTF8.GetBytes(key), [1, 2, 3, 4]);
            return 0;
        });
    }
}
