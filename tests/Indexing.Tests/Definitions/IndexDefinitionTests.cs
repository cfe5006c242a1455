using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Tests.Definitions;

public sealed class IndexDefinitionTests
{
    [Fact]
    public void A_definition_reads_from_json_and_writes_back_the_same()
    {
        var definition = IndexDefinition.FromJson("""
            {"name": "Carts/ByProduct", "EntityName": "Item",
             "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"},
                        {"Name": "Price", "Path": "itemList[].price", "Sort": "double"},
                        {"Name": "Text", "Path": "otherStuff", "Analysis": "FullText", "Sort": "String"},
                        {"Name": "Tag", "Path": "Raven-Entity-Name", "Source": "Metadata"}]}
            """);

        Assert.Equal("Carts/ByProduct", definition.Name);
        Assert.Equal("Item", definition.EntityName);
        Assert.Equal(FieldSort.Double, definition.Fields[1].Sort);
        Assert.Equal(FieldAnalysis.FullText, definition.Fields[2].Analysis);
        Assert.Equal(FieldSource.Metadata, definition.Fields[3].Source);
        var again = IndexDefinition.FromJson(definition.ToJson());
        Assert.True(again.IsSameAs(definition));
        Assert.Equal(definition.ToJson(), again.ToJson());
    }

    [Theory]
    [InlineData("""{"Name": "x", "Fields": []}""", "no fields")]
    [InlineData("""{"Name": "x"}""", "no Fields")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a"}]}""", "no Name")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a..b"}]}""", "empty property name")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a[0]"}]}""", "array indexes")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": ""}]}""", "path is required")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Analysis": "Stemmed"}]}""", "'Stemmed'")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Sort": "Date"}]}""", "'Date'")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Sort": "2"}]}""", "'2'")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Source": "Body"}]}""", "'Body'")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Analysis": "FullText", "Sort": "Long"}]}""", "FullText field cannot")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a"}, {"Name": "a", "Path": "b"}]}""", "more than one field")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A B", "Path": "a"}]}""", "field name must be")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a", "Boost": 2}]}""", "Unknown property 'Boost'")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a"}], "Map": "from doc"}""", "Unknown property 'Map'")]
    [InlineData("""{"Name": "../etc", "Fields": [{"Name": "A", "Path": "a"}]}""", "'..'")]
    [InlineData("""{"Name": "a\\b", "Fields": [{"Name": "A", "Path": "a"}]}""", "\\")]
    [InlineData("""{"Name": "a\u0001b", "Fields": [{"Name": "A", "Path": "a"}]}""", "U+0001")]
    [InlineData("""{"Name": "/abs", "Fields": [{"Name": "A", "Path": "a"}]}""", "empty part")]
    [InlineData("""{"Name": "x", "Fields": [{"Name": "A", "Path": "a"}]""", "not valid JSON")]
    [InlineData("""[1, 2]""", "must be a JSON object")]
    public void An_invalid_definition_is_refused_with_a_message_naming_the_problem(string json, string expected)
    {
        var ex = Assert.ThrowsAny<ArgumentException>(() => IndexDefinition.FromJson(json));
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_definition_built_in_code_is_checked_too()
    {
        var definition = new IndexDefinition
        {
            Name = "Bad",
            Fields = [new IndexFieldDefinition { Name = "A", Path = "a", Sort = (FieldSort)42 }],
        };
        var ex = Assert.Throws<ArgumentException>(definition.Validate);
        Assert.Contains("unknown Sort 42", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_built_in_index_is_valid_and_reserved()
    {
        BuiltInIndexes.DocumentsByEntityName.Validate();
        Assert.True(IndexName.IsReserved(BuiltInIndexes.DocumentsByEntityNameName));
        Assert.True(IndexName.IsReserved("raven/other"));
        Assert.False(IndexName.IsReserved("Carts/ByRaven"));
    }
}
