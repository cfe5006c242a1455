using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>The bounds every query is held to before and while Lucene's parser reads it.</summary>
public sealed class QueryLimitTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public QueryLimitTests() => _db.Put("items/1", "{}", "Item");

    public void Dispose() => _db.Dispose();

    private QueryResult Run(string query) => _db.Query(TestDefinitions.ByEntityName, query);

    [Fact]
    public void Groups_nested_256_deep_parse_and_257_is_a_QueryException_at_the_257th()
    {
        Assert.Equal(1, Run(new string('(', 256) + "Tag:Item" + new string(')', 256)).TotalResults);

        var ex = Assert.Throws<QueryException>(() => Run(new string('(', 257) + "Tag:Item" + new string(')', 257)));

        Assert.Equal(256, ex.Position);
        Assert.Contains("nest more than 256 deep", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Deep_nesting_far_past_the_limit_cannot_overflow_the_stack()
    {
        var ex = Assert.Throws<QueryException>(() => Run(new string('(', 30_000) + "Tag:Item"));
        Assert.Contains("nest more than", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void More_than_1024_clauses_in_a_group_is_a_QueryException_saying_so()
    {
        Assert.Equal(1, Run(string.Join(" OR ", Enumerable.Repeat("Tag:Item", 1024))).TotalResults);

        var ex = Assert.Throws<QueryException>(() => Run(string.Join(" OR ", Enumerable.Repeat("Tag:Item", 1025))));

        Assert.Contains("more than 1024 clauses", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_query_over_the_length_limit_is_refused_and_the_message_quotes_only_its_start()
    {
        var query = "Tag:" + new string('x', 100_000);

        var ex = Assert.Throws<QueryException>(() => Run(query));

        Assert.Equal(query, ex.Query);
        Assert.Contains("100,004 characters long", ex.Message, StringComparison.Ordinal);
        Assert.True(ex.Message.Length < 1_000);
    }

    [Fact]
    public void AND_and_OR_follow_Lucene_s_classic_parser_not_boolean_precedence()
    {
        // Lucene reads "a AND b OR c" as +a +b c: b is required. The in-house parser made it (a AND b) OR c.
        Assert.Equal(0, Run("Tag:Item AND Tag:Other OR Tag:Item").TotalResults);
        Assert.Equal(1, Run("(Tag:Item AND Tag:Other) OR Tag:Item").TotalResults);
    }

    [Theory]
    [InlineData("Tag:It*")]
    [InlineData("Tag:Itme~1")]
    [InlineData("Tag:/It.m/")]
    [InlineData("Tag:Item^2")]
    public void Lucene_s_prefix_fuzzy_regexp_and_boost_syntax_work_on_exact_fields(string query) =>
        Assert.Equal(1, Run(query).TotalResults);
}
