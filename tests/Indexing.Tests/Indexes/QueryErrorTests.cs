using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class QueryErrorTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public QueryErrorTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);
        for (var i = 0; i < 5; i++)
            _db.Put($"carts/{i}", $$"""{"cartId": {{i}}}""", "Item");
    }

    public void Dispose() => _db.Dispose();

    private QueryResult Run(IndexQuery query, string index = "Carts/ByProduct") => _db.Indexes.Query(index, query);

    [Fact]
    public void An_unknown_index_is_a_not_found_error_naming_it()
    {
        var ex = Assert.Throws<IndexNotFoundException>(() => Run(new IndexQuery { Query = "Tag:Item" }, "Nope/Index"));
        Assert.Contains("'Nope/Index'", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Tag:(Item", 4)]
    [InlineData("productId:42", 0)]
    [InlineData("CartId:abc", 7)]
    [InlineData("CartId:1.5", 7)]
    [InlineData("Price:[1 TO x]", 6)]
    [InlineData("CartId:4*", 7)]
    [InlineData("ProductId:42 AND Nope:1", 17)]
    public void Bad_queries_are_QueryExceptions_with_the_position(string query, int position)
    {
        var ex = Assert.Throws<QueryException>(() => Run(new IndexQuery { Query = query }));
        Assert.Equal(position, ex.Position);
        Assert.Contains(query, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Half_of_a_character_is_a_QueryException_not_a_search_for_U_FFFD()
    {
        // Built here: attribute arguments are stored as UTF-8, which cannot carry half of a character either.
        _db.Put("carts/fffd", """{"cartId": 9}""", "a\ufffdb");
        (string Query, int Position)[] cases = [("Tag:a\ud800b", 5), ("Tag:\udc00*", 4), ("Tag:\"x\ud83d\"", 6), ("Tag:\udc00\ud800", 4)];
        foreach (var (query, position) in cases)
        {
            var ex = Assert.Throws<QueryException>(() => Run(new IndexQuery { Query = query }, TestDefinitions.ByEntityName));
            Assert.Contains("unpaired UTF-16 surrogate", ex.Message, StringComparison.Ordinal);
            Assert.Equal(position, ex.Position);
        }
        Assert.Single(_db.Query(TestDefinitions.ByEntityName, "Tag:\"a\ufffdb\"").Results);
    }

    [Fact]
    public void An_unknown_field_hints_at_the_right_case()
    {
        var ex = Assert.Throws<QueryException>(() => Run(new IndexQuery { Query = "productId:42" }));
        Assert.Contains("did you mean 'ProductId'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Negative_start_or_page_size_is_an_argument_error()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Run(new IndexQuery { Start = -1 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => Run(new IndexQuery { PageSize = -1 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => Run(new IndexQuery { Timeout = TimeSpan.Zero }));
    }

    [Fact]
    public void A_page_size_over_the_maximum_is_clamped_and_says_so()
    {
        var result = _db.Query("Carts/ByProduct", "*:*", pageSize: 5000);
        Assert.True(result.PageSizeClamped);
        Assert.Equal(1024, result.PageSize);

        var normal = _db.Query("Carts/ByProduct", "*:*");
        Assert.False(normal.PageSizeClamped);
        Assert.Equal(128, normal.PageSize);
    }

    [Fact]
    public void A_page_size_of_zero_counts_without_loading()
    {
        var result = _db.Query("Carts/ByProduct", "*:*", pageSize: 0);
        Assert.Equal(5, result.TotalResults);
        Assert.Empty(result.Results);
        Assert.Null(result.Continuation);
    }

    [Theory]
    [InlineData("ProductId")]
    [InlineData("-Nope")]
    [InlineData("")]
    public void Sorting_by_a_field_that_is_not_sortable_is_an_argument_error(string sortBy)
    {
        var ex = Assert.Throws<ArgumentException>(() => Run(new IndexQuery { SortBy = [sortBy] }));
        Assert.Contains("SortBy", ex.Message + ex.ParamName, StringComparison.Ordinal);
    }

    [Fact]
    public void A_continuation_cannot_be_combined_with_start_or_used_for_another_query()
    {
        var first = _db.Query("Carts/ByProduct", "*:*", pageSize: 2);
        Assert.NotNull(first.Continuation);

        Assert.Throws<ArgumentException>(() => _db.Query("Carts/ByProduct", "*:*", pageSize: 2, start: 2, continuation: first.Continuation));
        Assert.Throws<ArgumentException>(() => _db.Query("Carts/ByProduct", "CartId:[0 TO *]", pageSize: 2, continuation: first.Continuation));
        Assert.Throws<ArgumentException>(() => _db.Query("Carts/ByProduct", "*:*", pageSize: 2, sortBy: ["CartId"], continuation: first.Continuation));
        Assert.Throws<ArgumentException>(() => _db.Query("Carts/ByProduct", "*:*", continuation: "garbage"));
    }

    [Fact]
    public void A_continuation_from_before_a_reset_is_refused()
    {
        var first = _db.Query("Carts/ByProduct", "*:*", pageSize: 2);
        _db.Indexes.ResetIndex("Carts/ByProduct");

        var ex = Assert.Throws<ArgumentException>(() => _db.Query("Carts/ByProduct", "*:*", pageSize: 2, continuation: first.Continuation));
        Assert.Contains("earlier build", ex.Message, StringComparison.Ordinal);
    }
}
