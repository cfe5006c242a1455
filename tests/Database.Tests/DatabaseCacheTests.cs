using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests;

/// <summary>The document cache as the embedded database exposes it: options and statistics.</summary>
public sealed class DatabaseCacheTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    [Fact]
    public void Statistics_include_the_cache_counters()
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, CacheSizeMb = 1 });
        // The indexer reads documents through the cache too; keep it still so the counters are this test's alone.
        using var paused = db.Indexes.PauseIndexing();
        db.Put("carts/1", DocumentContent.FromJson("""{"cartId":1}"""), DocumentContent.FromJson("""{"Raven-Entity-Name":"Cart"}"""));
        db.Get("carts/1");
        db.Get("CARTS/1");

        var stats = db.GetStatistics();

        Assert.Equal(1, stats.Documents);
        Assert.Equal(1, stats.ByEntityName["Cart"]);
        Assert.True(stats.Cache.Enabled);
        Assert.Equal(1L << 20, stats.Cache.LimitBytes);
        Assert.Equal((1, 1, 1), (stats.Cache.Hits, stats.Cache.Misses, stats.Cache.Entries));
        Assert.InRange(stats.Cache.Bytes, 1, 1L << 20);
        Assert.Equal(0.5, stats.Cache.HitRatio);
    }

    [Fact]
    public void The_cache_can_be_switched_off()
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, CacheSizeMb = 0 });
        db.Put("carts/1", DocumentContent.FromJson("""{"cartId":1}"""));

        Assert.Equal(1, db.Get("carts/1")!.Data.GetProperty("cartId").GetInt32());
        Assert.Equal(1, db.Get("carts/1")!.Data.GetProperty("cartId").GetInt32());

        var cache = db.GetStatistics().Cache;
        Assert.False(cache.Enabled);
        Assert.Equal((0, 0, 0), (cache.Hits, cache.Misses, cache.Entries));
    }

    [Theory]
    [InlineData(-5L)]
    [InlineData(long.MaxValue)]
    [InlineData(1L << 40)] // a tebibyte of MiB: more than this machine's memory
    public void A_bad_cache_size_is_refused_when_the_database_opens(long sizeMb)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() =>
            new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, CacheSizeMb = sizeMb }));

        Assert.Equal("CacheSizeMb", ex.ParamName);
        using var opened = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir }); // nothing left locked
    }
}
