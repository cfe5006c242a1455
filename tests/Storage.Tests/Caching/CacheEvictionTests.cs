using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>The cache stays within its byte limit and keeps what is read again.</summary>
public sealed class CacheEvictionTests : IDisposable
{
    private const long SmallCache = 64 * 1024;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Bytes_stay_under_the_limit_under_a_workload_several_times_bigger(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path, cacheSizeBytes: SmallCache);
        var keys = PutSeedCarts(store, 200);
        var random = new Random(42);

        for (var i = 0; i < 1_000; i++)
        {
            var key = keys[random.Next(random.Next(2) == 0 ? 10 : keys.Count)];
            var doc = store.Get(key)!;
            if (i % 3 != 0)
                Assert.Equal(666, doc.Data.GetProperty("cartId").GetInt64()); // parsing grows the entry
            var stats = store.GetCacheStatistics();
            Assert.InRange(stats.Bytes, 1, SmallCache);
        }

        var end = store.GetCacheStatistics();
        Assert.True(end.Evictions > 0, "a workload ten times the cache must evict");
        Assert.True(end.Hits > 0);
        Assert.InRange(end.Entries, 1, 199);
    }

    [EngineTheory]
    public void Documents_read_again_survive_a_scan_of_everything_else(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path, cacheSizeBytes: 128 * 1024);
        var hot = PutSeedCarts(store, 10, "hot");
        PutSeedCarts(store, 300, "cold");
        for (var round = 0; round < 3; round++)
        {
            foreach (var doc in store.Get(hot))
                _ = doc!.Data;
        }

        foreach (var doc in store.GetDocumentsAfterEtag(0, 1_000)) // the indexer's pass over every document
            _ = doc.Data;
        var beforeHotReads = store.GetCacheStatistics();
        store.Get(hot);
        var afterHotReads = store.GetCacheStatistics();

        // 202 refusals when no hash of the scan is mistaken for a remembered one; the doorkeeper's Bloom filters and the
        // ghost queue compare hashes seeded per process, so a run may admit a few reads early (199-202 seen; the bound
        // was 200 and failed one run in four). Over four times the 41 entries the cache holds either way.
        Assert.True(beforeHotReads.Refused > 180, $"the scan is several times the cache: once full, its first reads are refused (refused {beforeHotReads.Refused})");
        Assert.Equal(10, afterHotReads.Hits - beforeHotReads.Hits);
        Assert.Equal(beforeHotReads.Misses, afterHotReads.Misses);
    }

    [EngineTheory]
    public void A_full_cache_caches_a_document_on_its_second_read_not_its_first(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path, cacheSizeBytes: 64 * 1024);
        var keys = PutSeedCarts(store, 200);
        var filled = 0;
        while (store.GetCacheStatistics().Refused == 0)
            _ = store.Get(keys[filled++])!.Data; // every read admitted until the cache is full
        var full = store.GetCacheStatistics();
        var next = keys[filled];

        var first = store.Get(next)!;
        var afterFirst = store.GetCacheStatistics();
        var second = store.Get(next)!;
        var afterSecond = store.GetCacheStatistics();
        var third = store.Get(next)!;
        var afterThird = store.GetCacheStatistics();

        Assert.InRange(filled, 20, 199);
        Assert.Equal(full.Refused + 1, afterFirst.Refused);
        Assert.Equal(full.Entries, afterFirst.Entries); // refused: not cached, nothing evicted
        Assert.Equal(afterFirst.Refused, afterSecond.Refused); // the second read is admitted
        Assert.Equal(afterFirst.Misses + 1, afterSecond.Misses);
        Assert.NotSame(first, second);
        Assert.Same(second, third);
        Assert.Equal(afterSecond.Hits + 1, afterThird.Hits);
        Assert.InRange(afterThird.Bytes, 1, 64 * 1024);
    }

    [EngineTheory]
    public void A_document_bigger_than_the_cache_is_served_and_not_cached(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path, cacheSizeBytes: 16 * 1024);
        var text = new string('x', 100_000);
        store.Put("big", Json($$"""{"text":"{{text}}"}"""));
        store.PutSeedCart("small");

        var first = store.Get("big")!;
        var second = store.Get("big")!;
        store.Get("small");

        Assert.Equal(text, second.Data.GetProperty("text").GetString());
        Assert.NotSame(first, second);
        var stats = store.GetCacheStatistics();
        Assert.Equal((0, 3, 1), (stats.Hits, stats.Misses, stats.Entries));
        Assert.InRange(stats.Bytes, 1, 16 * 1024);
    }

    [EngineTheory]
    public void Parsing_a_cached_document_is_charged_to_the_cache(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");
        var doc = store.Get("carts/1")!;
        var unparsed = store.GetCacheStatistics().Bytes;

        _ = doc.Data;
        var dataParsed = store.GetCacheStatistics().Bytes;
        _ = doc.Metadata;
        _ = doc.Data;
        var bothParsed = store.GetCacheStatistics().Bytes;

        Assert.InRange(unparsed, 735, 4096); // the JSON text and overheads of a 735-byte BSON record
        Assert.True(dataParsed > unparsed + 1024, $"the data's parsed form must be charged ({unparsed} -> {dataParsed})");
        Assert.True(bothParsed > dataParsed, "the metadata's parsed form must be charged");
        Assert.Equal(bothParsed, store.GetCacheStatistics().Bytes);
    }

    [EngineTheory]
    public void A_replaced_version_frees_its_bytes(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        store.PutSeedCart("carts/1");
        _ = store.Get("carts/1")!.Data;
        var cached = store.GetCacheStatistics().Bytes;

        store.Put("carts/1", Json("""{"v":2}"""));

        var stats = store.GetCacheStatistics();
        Assert.True(cached > 0);
        Assert.Equal((0, 0), (stats.Entries, stats.Bytes));
        Assert.Equal(0, stats.Evictions); // dropping a replaced version is not an eviction
    }

    private static List<string> PutSeedCarts(DocumentStore store, int count, string prefix = "carts")
    {
        var keys = Enumerable.Range(0, count).Select(i => $"{prefix}/{i}").ToList();
        store.Batch(keys.Select(k => BatchCommand.Put(k,
            DocumentContent.FromBson(SeedCart.Data), DocumentContent.FromBson(SeedCart.Metadata))).ToList());
        return keys;
    }
}
