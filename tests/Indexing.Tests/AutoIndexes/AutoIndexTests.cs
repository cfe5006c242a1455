using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.AutoIndexes;

public sealed class AutoIndexTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public AutoIndexTests()
    {
        _db.Put("orders/1", """{"Customer":"Bob","Total":10.5,"PlacedAt":"2020-01-01T08:00:00Z","Tags":["a","b"],"Lines":[{"Price":60,"Quantity":1},{"Price":5,"Quantity":9}],"Note":null}""", "Order");
        _db.Put("orders/2", """{"Customer":"bob","Total":3,"PlacedAt":"2020-01-01T10:00:00.5+02:00","Tags":[],"Lines":[]}""", "Order");
        _db.Put("orders/3", """{"Customer":"Alice","Total":-1,"PlacedAt":"2020-01-01T07:59:59.9999999Z","Tags":["b"],"Lines":[{"Price":70,"Quantity":8}],"Note":"rush"}""", "Order");
        _db.Put("users/1", """{"Customer":"Bob"}""", "User");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query, params string[] sortBy) =>
        TestIndexes.Keys(_db.Query("dynamic/Order", query, pageSize: 1024, sortBy: sortBy.Length == 0 ? null : sortBy));

    private IReadOnlyList<string> AutoIndexes() =>
        [.. _db.Indexes.GetIndexDefinitions().Select(d => d.Name).Where(n => n.StartsWith("Auto/", StringComparison.Ordinal))];

    [Fact]
    public void A_collection_query_on_a_field_makes_an_auto_index_and_answers_from_it()
    {
        Assert.Equal(["orders/1"], Keys("Customer:Bob"));
        Assert.Equal(["Auto/Order/ByCustomer"], AutoIndexes());
        Assert.Equal("Auto/Order/ByCustomer", _db.Query("dynamic/Order", "Customer:bob").IndexName);
    }

    [Fact]
    public void A_query_on_another_field_widens_the_auto_index_and_the_narrower_one_goes_once_the_wider_caught_up()
    {
        Keys("Customer:Bob");
        Assert.Equal(["orders/1", "orders/2"], Keys("Total:[0 TO *]"));
        Assert.Contains("Auto/Order/ByCustomerAndTotal", AutoIndexes());
        Keys("Customer:Bob"); // the wider index has caught up: it answers, and the narrower one is deleted
        Assert.Equal(["Auto/Order/ByCustomerAndTotal"], AutoIndexes());
    }

    [Fact]
    public void A_new_auto_index_past_MaxAutoIndexes_is_refused_with_LimitExceededException_and_widening_still_works()
    {
        using var db = new TestIndexes(maxAutoIndexes: 2);
        db.Put("orders/1", """{"Customer":"Bob","Total":3}""", "Order");
        db.Put("users/1", """{"Name":"Bob"}""", "User");
        db.Query("dynamic/Order", "Customer:Bob");
        db.Query("dynamic/User", "Name:Bob");

        var refused = Assert.Throws<LimitExceededException>(() => db.Query("dynamic/Made-up", "Anything:x"));
        Assert.Equal("MaxAutoIndexes", refused.Limit);
        Assert.Contains("'Made-up'", refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(db.Indexes.GetIndexDefinitions(), d => d.Name.Contains("Made-up", StringComparison.Ordinal));
        // Widening replaces a collection's index, so it is not refused.
        Assert.Equal(["orders/1"], TestIndexes.Keys(db.Query("dynamic/Order", "Total:3")));
    }

    [Fact]
    public void An_auto_index_past_MaxFields_is_refused_with_LimitExceededException()
    {
        var fields = string.Join(" OR ", Enumerable.Range(0, 65).Select(i => $"F{i}:x"));
        var refused = Assert.Throws<LimitExceededException>(() => Keys(fields));
        Assert.Equal("MaxFields", refused.Limit);
        Assert.Empty(AutoIndexes());
    }

    [Fact]
    public void A_collection_query_without_fields_is_the_built_in_tag_query()
    {
        Assert.Equal(["orders/1", "orders/2", "orders/3"], Keys(""));
        Assert.Empty(AutoIndexes());
    }

    [Fact]
    public void Typed_kinds_compare_by_value()
    {
        Assert.Equal(["orders/1", "orders/2"], Keys("Customer@ci:BOB"));
        Assert.Equal(["orders/2"], Keys("Total@dec:\"3.000\""));
        Assert.Equal(["orders/1"], Keys("PlacedAt@time:\"2020-01-01T08:00:00.0000000Z\""));
        Assert.Equal(["orders/1", "orders/2"], Keys("PlacedAt@time:[\"2020-01-01T08:00:00Z\" TO *]"));
        Assert.Equal(["orders/3", "orders/1", "orders/2"], Keys("Total:*", "PlacedAt@time"));
        Assert.Equal(["orders/1", "orders/3"], Keys("Lines.Price@num:[50 TO *]"));
        Assert.Equal(["orders/1"], Keys("Tags@count:2"));
        Assert.Equal(["orders/1", "orders/2"], Keys("Note@null:true"));
        Assert.Equal(["orders/3", "orders/2", "orders/1"], Keys("Total:*", "Total@dec"));
        Assert.Equal(["orders/1", "orders/2"], Keys("Customer:*ob"));
    }

    [Fact]
    public void Unknown_kinds_and_bad_values_are_query_errors()
    {
        Assert.Throws<QueryException>(() => Keys("Total@bogus:1"));
        Assert.Throws<QueryException>(() => Keys("Total@dec:\"abc\""));
        Assert.Throws<QueryException>(() => Keys("PlacedAt@time:\"yesterday\""));
        Assert.Throws<QueryException>(() => Keys("Customer:\"unclosed"));
    }

    [Fact]
    public void Aggregates_come_from_doc_values()
    {
        var result = _db.Indexes.Query("dynamic/Order", new IndexQuery { Query = "Total:*", PageSize = 0, Aggregate = "Total@dec", WaitForNonStaleResults = true });
        Assert.Empty(result.Results);
        Assert.Equal(3, result.Aggregate!.Count);
        Assert.Equal(12.5m, result.Aggregate.ExactSum);
        Assert.Equal(-1m, result.Aggregate.ExactMin);
        Assert.Equal(10.5m, result.Aggregate.ExactMax);
        var numbers = _db.Indexes.Query("dynamic/Order", new IndexQuery { PageSize = 0, Aggregate = "Total@num", WaitForNonStaleResults = true });
        Assert.Equal(12.5, numbers.Aggregate!.Sum);
    }

    [Fact]
    public void Index_names_for_collection_queries_are_reserved() =>
        Assert.Throws<ArgumentException>(() => _db.Indexes.PutIndex(RavenLite.Indexing.Definitions.IndexDefinition.FromJson(
            """{"Name":"dynamic/Orders","Fields":[{"Name":"A","Path":"A"}]}""")));
}
