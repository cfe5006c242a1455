using RavenLite.Client.Caching;

namespace RavenLite.Client.Tests.Caching;

public sealed class BoundedCacheTests
{
    [Fact]
    public void Past_the_entry_limit_the_oldest_unused_entry_is_evicted()
    {
        var cache = new BoundedCache<string, int>(maxEntries: 2, maxBytes: 1000, StringComparer.Ordinal);
        cache.Set("a", 1, 10);
        cache.Set("b", 2, 10);
        cache.Set("c", 3, 10);
        Assert.False(cache.TryGet("a", out _));
        Assert.True(cache.TryGet("b", out var b) && b == 2);
        Assert.True(cache.TryGet("c", out _));
        Assert.Equal((2, 20L, 1L), (cache.Count, cache.Bytes, cache.Evictions));
    }

    [Fact]
    public void An_entry_used_since_it_entered_gets_a_second_chance()
    {
        var cache = new BoundedCache<string, int>(maxEntries: 2, maxBytes: 1000, StringComparer.Ordinal);
        cache.Set("a", 1, 10);
        cache.Set("b", 2, 10);
        Assert.True(cache.TryGet("a", out _));
        cache.Set("c", 3, 10);
        Assert.True(cache.TryGet("a", out _));
        Assert.False(cache.TryGet("b", out _));
    }

    [Fact]
    public void Past_the_byte_limit_entries_are_evicted_and_one_bigger_than_the_cache_is_not_kept()
    {
        var cache = new BoundedCache<string, int>(maxEntries: 100, maxBytes: 100, StringComparer.Ordinal);
        cache.Set("a", 1, 60);
        cache.Set("b", 2, 60);
        Assert.False(cache.TryGet("a", out _));
        Assert.Equal(60, cache.Bytes);
        cache.Set("huge", 3, 101);
        Assert.False(cache.TryGet("huge", out _));
        Assert.Equal(1, cache.Count);
    }

    [Fact]
    public void Replacing_and_removing_keep_the_counts_right()
    {
        var cache = new BoundedCache<string, int>(maxEntries: 10, maxBytes: 1000, StringComparer.Ordinal);
        for (var i = 0; i < 500; i++)
            cache.Set("a", i, 10 + i % 2);
        Assert.True(cache.TryGet("a", out var value) && value == 499);
        Assert.Equal((1, 11L), (cache.Count, cache.Bytes));
        cache.Remove("a");
        cache.Remove("a");
        Assert.Equal((0, 0L), (cache.Count, cache.Bytes));
        Assert.Equal((1L, 0L), (cache.Hits, cache.Evictions));
    }
}
