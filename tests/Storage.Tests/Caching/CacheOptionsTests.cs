using RavenLite.Storage.Caching;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>The cache's switch, its size limit and how bad settings are refused.</summary>
public sealed class CacheOptionsTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Cache_off_caches_nothing_and_counts_nothing(StorageEngineKind engine)
    {
        using var store = StoreFactory.Open(engine, _dir.Path, cacheEnabled: false);
        store.PutSeedCart("carts/1");

        var first = store.Get("carts/1")!;
        var second = store.Get("carts/1")!;
        store.Get(["carts/1"]);
        store.GetDocuments(0, 10);
        store.GetDocumentsAfterEtag(0, 10);
        store.ClearCache();

        Assert.NotSame(first, second);
        Assert.Equal(666, second.Data.GetProperty("cartId").GetInt64());
        Assert.Equal(CacheStatistics.Disabled, store.GetCacheStatistics());
        Assert.Equal((0, 0, 0, 0), (store.GetCacheStatistics().Hits, store.GetCacheStatistics().Misses,
            store.GetCacheStatistics().Entries, store.GetCacheStatistics().Bytes));
    }

    [Theory]
    [InlineData(0L)]
    [InlineData(-1L)]
    [InlineData(long.MinValue)]
    public void A_cache_size_of_zero_or_less_is_refused_at_open(long size)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() =>
            StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path, cacheSizeBytes: size));

        Assert.Equal(nameof(StorageOptions.CacheSizeBytes), ex.ParamName);
        Assert.Contains("CacheEnabled = false", ex.Message, StringComparison.Ordinal);
        using var opened = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path); // nothing was left locked
    }

    [Fact]
    public void A_cache_size_beyond_the_memory_the_process_can_use_is_refused_at_open()
    {
        var available = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;

        var ex = Assert.Throws<ArgumentOutOfRangeException>(() =>
            StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path, cacheSizeBytes: available + 1));

        Assert.Equal(nameof(StorageOptions.CacheSizeBytes), ex.ParamName);
        Assert.Contains("memory", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bad_size_is_refused_even_with_the_cache_off()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() =>
            StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path, cacheEnabled: false, cacheSizeBytes: 0));
    }

    [Fact]
    public void The_default_size_is_a_sixteenth_of_available_memory_at_most_1_GiB()
    {
        var expected = Math.Min(1L << 30, GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / 16);

        Assert.Equal(expected, StorageOptions.DefaultCacheSizeBytes);
        Assert.True(new StorageOptions { DataDirectory = "x" }.CacheEnabled);
        Assert.Equal(expected, new StorageOptions { DataDirectory = "x" }.CacheSizeBytes);
        using var store = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.Equal(expected, store.GetCacheStatistics().LimitBytes);
    }
}
