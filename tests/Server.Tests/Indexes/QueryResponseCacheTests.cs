using RavenLite.Indexing;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Tests.Indexes;

/// <summary>The response cache's bounds and eviction, and which answers a version vouches for.</summary>
public sealed class QueryResponseCacheTests
{
    private static readonly IndexVersion Version = new(Guid.NewGuid(), 10, DateTimeOffset.UnixEpoch, 10);

    private static QueryResponseKey Key(int start) => QueryResponseKey.For("Raven/DocumentsByEntityName", Version, new IndexQuery { Query = "Tag:Item", Start = start });

    [Fact]
    public void The_cache_stays_within_its_byte_limit_dropping_an_answer_not_read_again_before_one_that_was()
    {
        var cache = new QueryResponseCache(40_000);
        cache.Add(Key(0), new QueryResponseEntry(new byte[9_000], "\"a\""));
        cache.Add(Key(1), new QueryResponseEntry(new byte[9_000], "\"b\""));
        cache.Add(Key(2), new QueryResponseEntry(new byte[9_000], "\"c\""));
        Assert.True(cache.TryGet(Key(0), out _)); // read again: key 1, never read again, goes first

        cache.Add(Key(3), new QueryResponseEntry(new byte[9_000], "\"d\""));
        cache.Add(Key(4), new QueryResponseEntry(new byte[9_000], "\"e\""));

        Assert.InRange(cache.Bytes, 1, cache.LimitBytes);
        Assert.False(cache.TryGet(Key(1), out _));
        Assert.True(cache.TryGet(Key(0), out var kept));
        Assert.Equal("\"a\"", kept.ETag);
        Assert.True(cache.TryGet(Key(4), out _));
    }

    [Fact]
    public void A_body_over_a_quarter_of_the_limit_is_not_kept()
    {
        var cache = new QueryResponseCache(40_000);
        cache.Add(Key(0), new QueryResponseEntry(new byte[10_001], "\"a\""));

        Assert.Equal(0, cache.Count);
        Assert.False(cache.TryGet(Key(0), out _));
    }

    [Fact]
    public void A_cache_of_size_zero_keeps_nothing()
    {
        var cache = new QueryResponseCache(0);
        cache.Add(Key(0), new QueryResponseEntry([1], "\"a\""));
        Assert.False(cache.Enabled);
        Assert.False(cache.TryGet(Key(0), out _));
    }

    [Fact]
    public void Keys_differ_by_version_and_by_sort_list()
    {
        var query = new IndexQuery { Query = "Tag:Item", SortBy = ["a", "b"] };
        Assert.Equal(QueryResponseKey.For("i", Version, query), QueryResponseKey.For("i", Version, new IndexQuery { Query = "Tag:Item", SortBy = ["a", "b"] }));
        Assert.NotEqual(QueryResponseKey.For("i", Version, query), QueryResponseKey.For("i", Version with { DatabaseEtag = 11 }, query));
        Assert.NotEqual(QueryResponseKey.For("i", Version, query), QueryResponseKey.For("i", Version with { Generation = Guid.NewGuid() }, query));
        Assert.NotEqual(QueryResponseKey.For("i", Version, query), QueryResponseKey.For("i", Version, new IndexQuery { Query = "Tag:Item", SortBy = ["ab"] }));
    }

    [Fact]
    public void A_version_behind_the_database_is_stale()
    {
        Assert.True(new IndexVersion(Guid.Empty, 9, null, 10).IsStale);
        Assert.False(new IndexVersion(Guid.Empty, 10, null, 10).IsStale);
    }

    [Fact]
    public void The_etag_changes_with_the_version_and_the_parameters()
    {
        var query = new IndexQuery { Query = "Tag:Item" };
        var tag = QueryResultETag.Compute(QueryResponseKey.For("i", Version, query), 128);
        Assert.Equal(tag, QueryResultETag.Compute(QueryResponseKey.For("i", Version, query), 128));
        Assert.NotEqual(tag, QueryResultETag.Compute(QueryResponseKey.For("i", Version with { DatabaseEtag = 11 }, query), 128));
        Assert.NotEqual(tag, QueryResultETag.Compute(QueryResponseKey.For("i", Version with { Generation = Guid.NewGuid() }, query), 128));
        Assert.NotEqual(tag, QueryResultETag.Compute(QueryResponseKey.For("i", Version, new IndexQuery { Query = "Tag:Item", Start = 1 }), 128));
        Assert.NotEqual(tag, QueryResultETag.Compute(QueryResponseKey.For("i", Version, query), 1024));
    }
}
