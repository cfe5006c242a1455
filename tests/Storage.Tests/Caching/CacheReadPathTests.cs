using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>Every document read goes through the cache; writes are never hidden by it.</summary>
public sealed class CacheReadPathTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Second_read_is_a_hit(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");

        var first = store.Get("carts/1")!;
        var afterFirst = store.GetCacheStatistics();
        var second = store.Get("carts/1")!;
        var afterSecond = store.GetCacheStatistics();

        Assert.Equal((0, 1, 1), (afterFirst.Hits, afterFirst.Misses, afterFirst.Entries));
        Assert.Equal((1, 1, 1), (afterSecond.Hits, afterSecond.Misses, afterSecond.Entries));
        Assert.Same(first, second);
        Assert.Equal(666, second.Data.GetProperty("cartId").GetInt64());
    }

    [EngineTheory]
    public void What_an_owner_derives_from_a_cached_version_is_kept_with_it_and_charged_to_the_cache(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");
        var document = store.Get("carts/1")!;
        var before = store.GetCacheStatistics().Bytes;
        object owner = new(), other = new();
        var made = 0;

        var first = document.Derive(owner, d => { made++; return new List<string> { d.Key }; }, estimatedBytes: 10_000);
        var again = store.Get("carts/1")!.Derive(owner, d => { made++; return new List<string> { d.Key }; }, estimatedBytes: 10_000);
        var others = document.Derive(other, d => new List<string> { "other" }, estimatedBytes: 10_000);

        Assert.Same(first, again);
        Assert.Equal(1, made);
        Assert.Equal("other", Assert.Single(others));
        Assert.NotSame(others, document.Derive(other, d => new List<string> { "other" }, estimatedBytes: 10_000));
        Assert.True(store.GetCacheStatistics().Bytes >= before + 10_000, $"cache bytes {before} -> {store.GetCacheStatistics().Bytes}");
    }

    [EngineTheory]
    public void Different_casings_of_a_key_share_one_entry(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("Carts/1");

        var lower = store.Get("carts/1")!;
        var upper = store.Get("CARTS/1")!;

        Assert.Same(lower, upper);
        Assert.Equal("Carts/1", upper.Key);
        Assert.Equal((1, 1, 1), (store.GetCacheStatistics().Hits, store.GetCacheStatistics().Misses, store.GetCacheStatistics().Entries));
    }

    [EngineTheory]
    public void Non_ASCII_and_spaced_keys_fold_the_same_way_on_every_path(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("Çarts/Ü 1");

        var first = store.Get("çarts/ü 1")!;
        var second = store.Get(["ÇARTS/Ü 1"])[0]!;

        Assert.Same(first, second);
        Assert.Equal("Çarts/Ü 1", second.Key);
        Assert.True(store.Delete("çARTS/ü 1"));
        Assert.Null(store.Get("Çarts/Ü 1"));
    }

    [EngineTheory]
    public void Multi_get_paging_and_the_etag_feed_are_served_from_the_cache(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var keys = Enumerable.Range(0, 20).Select(i => $"carts/{i}").ToList();
        foreach (var key in keys)
            store.PutSeedCart(key);

        var warmed = store.Get(keys);
        Assert.Equal(20, store.GetCacheStatistics().Misses);

        var again = store.Get(keys);
        var page = store.GetDocuments(0, 20);
        var feed = store.GetDocumentsAfterEtag(0, 20);

        var stats = store.GetCacheStatistics();
        Assert.Equal(20, stats.Misses);
        Assert.Equal(60, stats.Hits);
        Assert.Equal(warmed, again);
        Assert.All(page, d => Assert.Contains(d, warmed));
        Assert.All(feed, d => Assert.Contains(d, warmed));
    }

    [EngineTheory]
    public void Etag_feed_not_adding_to_the_cache_serves_hits_and_leaves_misses_out(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        var keys = Enumerable.Range(0, 10).Select(i => $"carts/{i}").ToList();
        foreach (var key in keys)
            store.PutSeedCart(key);
        var cached = store.Get(keys.Take(4).ToList());

        var feed = store.GetDocumentsAfterEtag(0, 10, addToCache: false);

        var stats = store.GetCacheStatistics();
        Assert.Equal((4, 4, 10), (stats.Entries, stats.Hits, stats.Misses));
        Assert.Equal(keys, feed.Select(d => d.Key));
        Assert.All(cached, d => Assert.Contains(d, feed));
        Assert.All(feed, d => Assert.Equal(666, d.Data.GetProperty("cartId").GetInt64()));
    }

    [EngineTheory]
    public void A_put_makes_the_next_read_return_the_new_version_never_the_old(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("k", Json("""{"v":1}"""));
        var old = store.Get("k")!;
        Assert.Equal(1, old.Data.GetProperty("v").GetInt32());

        var second = store.Put("K", Json("""{"v":2}"""));

        var single = store.Get("k")!;
        var multi = store.Get(["k"])[0]!;
        var page = store.GetDocuments(0, 10).Single();
        var feed = store.GetDocumentsAfterEtag(0, 10).Single();
        foreach (var doc in new[] { single, multi, page, feed })
        {
            Assert.Equal(second.Etag, doc.Etag);
            Assert.Equal(2, doc.Data.GetProperty("v").GetInt32());
            Assert.Equal("K", doc.Key);
        }
        Assert.Equal(1, store.GetCacheStatistics().Entries); // the old version was dropped after the commit
        Assert.Equal(1, old.Data.GetProperty("v").GetInt32()); // and what its reader holds did not change
    }

    [EngineTheory]
    public void A_delete_makes_the_next_read_return_nothing(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");
        store.PutSeedCart("carts/2");
        Assert.NotNull(store.Get("carts/1"));
        Assert.Equal(1, store.GetCacheStatistics().Entries);

        store.Delete("CARTS/1");

        Assert.Null(store.Get("carts/1"));
        Assert.Null(store.Get(["carts/1"])[0]);
        Assert.DoesNotContain(store.GetDocuments(0, 10), d => d.Key == "carts/1");
        Assert.DoesNotContain(store.GetDocumentsAfterEtag(0, 10), d => d.Key == "carts/1");
        Assert.Equal(1, store.GetCacheStatistics().Entries); // only carts/2, read by the page and the feed
    }

    [EngineTheory]
    public void A_batch_replacing_a_key_twice_leaves_only_the_last_version_readable(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.Put("k", Json("""{"v":0}"""));
        _ = store.Get("k")!.Data;

        var results = store.Batch([BatchCommand.Put("k", Json("""{"v":1}""")), BatchCommand.Put("k", Json("""{"v":2}"""))]);

        var doc = store.Get("k")!;
        Assert.Equal(results[1].Etag, doc.Etag);
        Assert.Equal(2, doc.Data.GetProperty("v").GetInt32());
    }

    [EngineTheory]
    public void Reopening_starts_with_an_empty_cache_and_reads_the_same_documents(StorageEngineKind engine)
    {
        using (var store = Open(engine, _dir.Path))
        {
            store.PutSeedCart("carts/1");
            _ = store.Get("carts/1");
        }

        using var reopened = Open(engine, _dir.Path);
        Assert.Equal(0, reopened.GetCacheStatistics().Entries);
        Assert.Equal(666, reopened.Get("carts/1")!.Data.GetProperty("cartId").GetInt64());
        Assert.Equal(1, reopened.GetCacheStatistics().Misses);
    }

    [EngineTheory]
    public void Clearing_the_cache_makes_the_next_read_deserialize_again(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");
        var first = store.Get("carts/1")!;

        store.ClearCache();
        var cleared = store.GetCacheStatistics();
        var second = store.Get("carts/1")!;

        Assert.Equal((0, 0), (cleared.Entries, cleared.Bytes));
        Assert.NotSame(first, second);
        Assert.Equal(2, store.GetCacheStatistics().Misses);
        Assert.Equal(first.DataJson.ToArray(), second.DataJson.ToArray());
    }
}
