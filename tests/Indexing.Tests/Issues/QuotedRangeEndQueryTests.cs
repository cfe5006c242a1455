using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// A range of a typed field without a suffix whose end is quoted was compared as numbers when the end read as one, so
/// <c>Name:{* TO "10"}</c> matched the numbers below 10 and none of the strings before "10"; and <c>""</c>, which the
/// grammar reads as two quote characters rather than a quoted end, made <c>Name:{* TO ""}</c> match the empty string.
/// A quoted end is a string, as a quoted term is; unquoted numbers still compare as numbers.
/// </summary>
public sealed class QuotedRangeEndQueryTests : IDisposable
{
    private const string Index = "Items/ByName";
    private readonly TestIndexes _db = new();

    public QuotedRangeEndQueryTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple(Index, path: "name", analysis: "Typed", sort: "None"));
        _db.Put("items/empty", """{"name":""}""");
        _db.Put("items/s10", """{"name":"10"}""");
        _db.Put("items/s9", """{"name":"9"}""");
        _db.Put("items/a", """{"name":"a"}""");
        _db.Put("items/n5", """{"name":5}""");
        _db.Put("items/n20", """{"name":20}""");
        _db.Put("items/none", """{"name":null}""");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query) => [.. _db.Query(Index, query).Results.Select(d => d.Key).Order(StringComparer.Ordinal)];

    [Theory]
    [InlineData("""Value:{* TO "10"}""", "items/empty")]
    [InlineData("""Value:[* TO "10"]""", "items/empty,items/s10")]
    [InlineData("""Value:{"10" TO *]""", "items/a,items/s9")]
    [InlineData("""Value:["10" TO "9"]""", "items/s10,items/s9")]
    [InlineData("""Value:{* TO ""}""", "")]
    [InlineData("""Value:[* TO ""]""", "items/empty")]
    [InlineData("""Value:{"" TO *]""", "items/a,items/s10,items/s9")]
    [InlineData("""Value:["" TO "10"}""", "items/empty")]
    [InlineData("Value:{* TO 10}", "items/n5")]
    [InlineData("Value:[10 TO *]", "items/n20")]
    public void A_quoted_range_end_is_a_string_and_an_unquoted_number_a_number(string query, string expected) =>
        Assert.Equal(expected.Split(',', StringSplitOptions.RemoveEmptyEntries), Keys(query));
}
