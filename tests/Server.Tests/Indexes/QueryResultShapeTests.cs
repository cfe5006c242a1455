using Microsoft.AspNetCore.Http;
using RavenLite.Indexing;
using RavenLite.Server.Indexes;

namespace RavenLite.Server.Tests.Indexes;

/// <summary>Which include and fetch paths make a different response key (and so a different kept body and tag).</summary>
public sealed class QueryResultShapeTests
{
    private static readonly IndexVersion Version = new(Guid.NewGuid(), 10, DateTimeOffset.UnixEpoch, 10);
    private static readonly IndexQuery Query = new() { Query = "Tag:Order" };

    private static QueryResponseKey Key(string queryString)
    {
        var context = new DefaultHttpContext();
        context.Request.QueryString = new QueryString(queryString);
        return QueryResponseKey.For("i", Version, Query, QueryResultShape.Parse(context.Request));
    }

    [Theory]
    [InlineData("", "?include=CustomerId")]
    [InlineData("", "?fetch=Total")]
    [InlineData("?include=Total", "?fetch=Total")]
    [InlineData("?include=ab", "?include=a&include=b")]
    [InlineData("?fetch=Total", "?fetch=Total&fetch=Customer")]
    [InlineData("?fetch=Total&fetch=Customer", "?fetch=Customer&fetch=Total")]
    public void Different_paths_are_different_keys(string one, string other)
    {
        Assert.NotEqual(Key(one), Key(other));
    }

    [Fact]
    public void The_same_paths_given_again_are_the_same_key_and_no_paths_is_the_plain_key()
    {
        Assert.Equal(Key("?include=CustomerId&fetch=Total"), Key("?include=CustomerId&include=CustomerId&fetch=Total&fetch=Total"));
        Assert.Equal(QueryResponseKey.For("i", Version, Query), Key(""));
    }
}
