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

        var (read, fromStorage, _) = store.GetKnownVersions([new KnownVersion("K", put.Etag)]);
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

        var read = store.GetKnownVersions([new KnownVersion("k", first.Etag)]).Documents;

        Assert.Equal(2, read[0]!.Data.GetProperty("v").GetInt32());
        Assert.Equal(2, store.GetCacheStatistics().Misses); // the first Get, then the current version's read (not the etag that failed)
    }

    [EngineTheory]
    public void Uncached_and_missing_documents_are_read_from_storage(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.PutSeedCart("carts/1");

        var (read, fromStorage, _) = store.GetKnownVersions([new KnownVersion("carts/1", put.Etag), new KnownVersion("carts/2", 99)]);

        Assert.Equal(666, read[0]!.Data.GetProperty("cartId").GetInt64());
        Assert.Null(read[1]);
        Assert.Equal(2, fromStorage); // both needed a storage lookup, the missing one too
        Assert.Equal(1, store.GetCacheStatistics().Misses); // counted once, by the storage read; no document is no miss
    }

    [EngineTheory]
    public void A_version_asked_again_is_served_by_the_entry_it_remembers(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.Put("k", Json("""{"v":1}"""));
        var cached = store.Get("k")!;
        var version = new KnownVersion("K", put.Etag);
        store.GetKnownVersions([version]);
        var before = store.GetCacheStatistics();

        var (read, fromStorage, _) = store.GetKnownVersions([version, version]);

        Assert.Equal(0, fromStorage);
        Assert.Same(cached, read[0]);
        Assert.Same(cached, read[1]);
        Assert.Equal((before.Hits + 2, before.Misses), (store.GetCacheStatistics().Hits, store.GetCacheStatistics().Misses));
    }

    [EngineTheory]
    public void A_remembered_entry_that_left_the_cache_is_not_used(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var put = store.Put("k", Json("""{"v":1}"""));
        var cached = store.Get("k")!;
        var version = new KnownVersion("k", put.Etag);
        store.GetKnownVersions([version]);
        store.ClearCache();

        var (read, fromStorage, _) = store.GetKnownVersions([version]);

        Assert.Equal(1, fromStorage);
        Assert.NotSame(cached, read[0]);
        Assert.Equal(1, read[0]!.Data.GetProperty("v").GetInt32());
    }

    [EngineTheory]
    public void A_version_remembered_by_one_store_reads_another_stores_own_document(StorageEngineKind engine)
    {
        using var first = Open(engine, System.IO.Path.Combine(_dir.Path, "first"));
        using var second = Open(engine, System.IO.Path.Combine(_dir.Path, "second"));
        var put = first.Put("k", Json("""{"v":1}"""));
        Assert.Equal(put.Etag, second.Put("k", Json("""{"v":2}""")).Etag);
        first.Get("k");
        second.Get("k");
        var version = new KnownVersion("k", put.Etag);
        first.GetKnownVersions([version]);

        var read = second.GetKnownVersions([version]).Documents;

        Assert.Equal(2, read[0]!.Data.GetProperty("v").GetInt32());
    }

    [EngineTheory]
    public void Without_a_cache_every_version_is_read_from_storage(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path, cacheEnabled: false);
        var put = store.Put("k", Json("""{"v":1}"""));

        var (read, fromStorage, _) = store.GetKnownVersions([new KnownVersion("k", put.Etag)]);

        Assert.Equal(1, fromStorage);
        Assert.Equal(1, read[0]!.Data.GetProperty("v").GetInt32());
    }

    [Fact]
    public void A_remembered_entry_lets_go_of_its_document_once_evicted()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path, cacheSizeBytes: 16 * 1024);
        var versions = Enumerable.Range(0, 50).Select(i => new KnownVersion($"carts/{i}", store.PutSeedCart($"carts/{i}").Etag)).ToArray();
        store.GetKnownVersions(versions);
        store.GetKnownVersions(versions);
        Assert.Contains(versions, v => v.CachedEntry?.Document is not null);

        for (var pass = 0; pass < 3; pass++)
        {
            for (var i = 0; i < 100; i++)
                Assert.NotNull(store.Get($"others/{i}") ?? store.Get(store.PutSeedCart($"others/{i}").Key));
        }

        // The other documents pushed remembered entries out; those hold no document, the ones still cached do.
        Assert.Contains(versions, v => v.CachedEntry is { Document: null });
        Assert.All(versions, v => Assert.Equal(v.CachedEntry?.Queue is not null, v.CachedEntry?.Document is not null));
    }

    [Fact]
    public void A_version_needs_a_key()
    {
        Assert.Throws<ArgumentNullException>(() => new KnownVersion(null!, 1));
    }
}
