using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// A typed field queried without a suffix, as a curl user writes it: an unquoted number was compared as a double, so
/// <c>Big:9007199254740993</c> also matched 9007199254740992 (one double holds both) and
/// <c>Big:{9007199254740992 TO *]</c> missed 9007199254740993; and <c>Tip:[* TO *]</c> was a range of strings, so it
/// matched no number (while <c>Tip:*</c> matched them all) and <c>-Tip:[* TO *]</c> matched every document.
/// </summary>
public sealed class UnsuffixedNumberQueryTests : IDisposable
{
    private const string Index = "Items/ByBig";
    private readonly TestIndexes _db = new();

    public UnsuffixedNumberQueryTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple(Index, path: "big", analysis: "Typed", sort: "None"));
        _db.Put("items/92", """{"big":9007199254740992}""");
        _db.Put("items/93", """{"big":9007199254740993}""");
        _db.Put("items/text", """{"big":"text"}""");
        _db.Put("items/none", """{"big":null}""");
        _db.Put("items/huge", """{"big":1e300}""");
        _db.Put("items/tiny", """{"big":1e-30}""");
        _db.Put("items/zero", """{"big":-0.0}""");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query) => [.. _db.Query(Index, query).Results.Select(d => d.Key).Order(StringComparer.Ordinal)];

    [Theory]
    [InlineData("Value:9007199254740993", "items/93")]
    [InlineData("Value:9007199254740992", "items/92")]
    [InlineData("Value:9007199254740992.0", "items/92")]
    [InlineData("Value:[9007199254740993 TO *]", "items/93,items/huge")]
    [InlineData("Value:{9007199254740992 TO *]", "items/93,items/huge")]
    [InlineData("Value:[* TO 9007199254740993}", "items/92,items/tiny,items/zero")]
    [InlineData("Value:[9007199254740992 TO 9007199254740992]", "items/92")]
    [InlineData("Value:{0 TO 1}", "items/tiny")]
    [InlineData("Value:[0 TO 0]", "items/zero")]
    [InlineData("Value:0", "items/zero")]
    [InlineData("Value:1e300", "items/huge")]
    [InlineData("Value:[1e299 TO *]", "items/huge")]
    public void An_unquoted_number_compares_numbers_exactly(string query, string expected) =>
        Assert.Equal(expected.Split(','), Keys(query));

    [Fact]
    public void An_open_range_without_a_suffix_matches_any_value_as_a_star_does()
    {
        Assert.Equal(Keys("Value:*"), Keys("Value:[* TO *]"));
        Assert.Equal(["items/92", "items/93", "items/huge", "items/text", "items/tiny", "items/zero"], Keys("Value:[* TO *]"));
        Assert.Equal(["items/none"], Keys("-Value:[* TO *]"));
    }
}
