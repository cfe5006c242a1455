using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Tests.Definitions;

public sealed class ReduceDefinitionTests
{
    private const string Fields = """
        "Fields": [{"Name": "Customer", "Path": "Customer"}, {"Name": "Product", "Path": "Lines[].Product"},
                   {"Name": "Price", "Path": "Lines[].Price", "Sort": "Double"}, {"Name": "Note", "Path": "Note"},
                   {"Name": "Paid", "Path": "Payments[].Amount", "Sort": "Double"}]
        """;

    private static IndexDefinition Read(string reduce) => IndexDefinition.FromJson($$"""{"Name": "Totals", {{Fields}}, "Reduce": {{reduce}}}""");

    [Fact]
    public void A_reduce_reads_from_json_and_writes_back_the_same()
    {
        var definition = Read("""
            {"groupBy": ["Customer", "Product"], "Aggregates": [{"Name": "N", "Function": "count"},
             {"Name": "Total", "Function": "Sum", "Field": "Price"}, {"Name": "Avg", "Function": "Average", "Field": "Price"}]}
            """);

        Assert.Equal(["Customer", "Product"], definition.Reduce!.GroupBy);
        Assert.Equal(ReduceFunction.Count, definition.Reduce.Aggregates[0].Function);
        Assert.Equal("Price", definition.Reduce.Aggregates[1].Field);
        var again = IndexDefinition.FromJson(definition.ToJson());
        Assert.True(again.IsSameAs(definition));
        Assert.False(again.IsSameAs(IndexDefinition.FromJson($$"""{"Name": "Totals", {{Fields}}}""")));
    }

    [Theory]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "X", "Function": "Median", "Field": "Price"}]}""", "Reduce.Aggregates[0].Function is 'Median'")]
    [InlineData("""{"GroupBy": ["Shop"], "Aggregates": [{"Name": "N", "Function": "Count"}]}""", "GroupBy[0] 'Shop' is not a mapped field")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "T", "Function": "Sum", "Field": "Note"}]}""", "Sum over 'Note', which is not numeric")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "T", "Function": "Max", "Field": "Cost"}]}""", "Field 'Cost' is not a mapped field")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "T", "Function": "Sum"}]}""", "Sum needs a Field")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "T", "Function": "Count", "Field": "Price"}]}""", "Count takes no Field")]
    [InlineData("""{"GroupBy": [], "Aggregates": [{"Name": "N", "Function": "Count"}]}""", "GroupBy is empty")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": []}""", "Aggregates is empty")]
    [InlineData("""{"GroupBy": ["Customer"]}""", "Reduce has no Aggregates")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "Customer", "Function": "Count"}]}""", "already used")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "a.b", "Function": "Count"}]}""", "Aggregates[0] ('a.b')")]
    [InlineData("""{"GroupBy": ["Product"], "Aggregates": [{"Name": "P", "Function": "Sum", "Field": "Paid"}]}""", "through one array only")]
    [InlineData("""{"GroupBy": ["Customer"], "Aggregates": [{"Name": "N", "Function": "Count"}], "Having": 1}""", "Unknown property 'Having' in Reduce")]
    public void A_bad_reduce_is_refused_naming_the_part(string reduce, string expected)
    {
        var error = Assert.ThrowsAny<ArgumentException>(() => Read(reduce));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }
}
