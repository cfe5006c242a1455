using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>Reads by known etag (what a caught-up index hands the store): cached versions by etag, the rest from storage.</summary>
public sealed class KnownVersionsTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void A_cached_version_is_served_by_its_etag(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.Put("k", Json("""{"v":1}"""));
        var cached = store.Get("k")!;
        var before = store.GetCacheStatistics();

        var (read, fromStorage, _) = store.GetKnownVersions(["K"], [put.Etag]);
        Assert.Equal(0, fromStorage);

        Assert.Same(cached, read[0]);
        Assert.Equal((before.Hits + 1, before.Misses), (store.GetCacheStatistics().Hits, store.GetCacheStatistics().Misses));
    }

    [EngineTheory]
    public void A_version_replaced_since_reads_the_current_one(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var first = store.Put("k", Json("""{"v":1}"""));
        store.Get("k");
        store.Put("k", Json("""{"v":2}"""));

        var read = store.GetKnownVersions(["k"], [first.Etag]).Documents;

        Assert.Equal(2, read[0]!.Data.GetProperty("v").GetInt32());
        Assert.Equal(2, store.GetCacheStatistics().Misses); // the first Get, then the current version's read (not the etag that failed)
    }

    [EngineTheory]
    public void Uncached_and_missing_documents_are_read_from_storage(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.PutSeedCart("carts/1");

        var (read, fromStorage, _) = store.GetKnownVersions(["carts/1", "carts/2"], [put.Etag, 99]);

        Assert.Equal(666, read[0]!.Data.GetProperty("cartId").GetInt64());
        Assert.Null(read[1]);
        Assert.Equal(2, fromStorage); // both needed a storage lookup, the missing one too
        Assert.Equal(1, store.GetCacheStatistics().Misses); // counted once, by the storage read; no document is no miss
    }

    [Fact]
    public void Keys_and_etags_must_pair_up()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);

        Assert.Throws<ArgumentOutOfRangeException>(() => store.GetKnownVersions(["a", "b"], [1]));
    }
}
