using System.Text.Json;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

public sealed class JsonPathTests
{
    private static (List<string> Values, string? Error) Evaluate(string path, string json)
    {
        using var document = JsonDocument.Parse(json);
        var values = new List<JsonElement>();
        var error = JsonPath.Parse(path).Evaluate(document.RootElement, values);
        return (values.Select(v => FieldValue.From(v).Text).ToList(), error);
    }

    [Fact]
    public void Array_items_are_all_taken()
    {
        var (values, error) = Evaluate("itemList[].productId", """{"itemList":[{"productId":42},{"productId":7},{"name":"x"},{"productId":null}]}""");
        Assert.Null(error);
        Assert.Equal(["42", "7"], values);
    }

    [Fact]
    public void Nested_objects_and_nested_arrays()
    {
        Assert.Equal(["Oren"], Evaluate("customer.name", """{"customer":{"name":"Oren"}}""").Values);
        Assert.Equal(["1", "2", "3"], Evaluate("m[][]", """{"m":[[1,2],[3]]}""").Values);
        Assert.Equal(["a", "b"], Evaluate("o[].tags[]", """{"o":[{"tags":["a"]},{"tags":["b"]}]}""").Values);
        Assert.Equal(["true"], Evaluate("flag", """{"flag":true}""").Values);
    }

    [Fact]
    public void Missing_properties_and_nulls_give_nothing_without_an_error()
    {
        Assert.Equal((0, (string?)null), (Evaluate("a.b.c", """{"x":1}""").Values.Count, Evaluate("a.b.c", """{"x":1}""").Error));
        Assert.Empty(Evaluate("a[]", """{"a":null}""").Values);
    }

    [Theory]
    [InlineData("itemList", """{"itemList":[1]}""", "reaches an array")]
    [InlineData("customer", """{"customer":{"a":1}}""", "reaches an object")]
    [InlineData("a.b", """{"a":5}""", "expects an object")]
    [InlineData("a[]", """{"a":5}""", "expects an array")]
    public void A_path_reaching_something_that_is_not_a_value_reports_an_error(string path, string json, string expected)
    {
        var (_, error) = Evaluate(path, json);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public void Other_items_are_still_taken_when_one_item_is_bad()
    {
        var (values, error) = Evaluate("a[].b", """{"a":[{"b":{"c":1}},{"b":2}]}""");
        Assert.NotNull(error);
        Assert.Equal(["2"], values);
    }

    [Theory]
    [InlineData("a..b")]
    [InlineData(".a")]
    [InlineData("a.")]
    [InlineData("a[0]")]
    [InlineData("a[")]
    [InlineData("a[]x")]
    [InlineData("[]")]
    [InlineData("a]")]
    public void Bad_paths_are_refused(string path)
    {
        Assert.Throws<ArgumentException>(() => JsonPath.Parse(path));
    }
}
