using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// A stored double whose digits reach below a decimal's 28 places (<c>1.2345678901234567E-20</c>) was indexed under
/// <c>@dec</c> as the decimal parsing rounded it to (<c>0.0000000000000000000123456789</c>), so an exact query for that
/// other number matched it, and a <c>@dec</c> range, sort or aggregate read a number the document does not hold.
/// <c>@dec</c> holds only what a decimal holds exactly; such a number is compared through <c>@num</c>.
/// </summary>
public sealed class InexactDecimalTermTests : IDisposable
{
    private const string Index = "Items/ByBig";
    private readonly TestIndexes _db = new();

    public InexactDecimalTermTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple(Index, path: "big", analysis: "Typed", sort: "None"));
        _db.Put("items/long", """{"big":1.2345678901234567E-20}""");
        _db.Put("items/short", """{"big":1.23456789E-20}""");
        _db.Put("items/one", """{"big":1}""");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query) => [.. _db.Query(Index, query).Results.Select(d => d.Key).Order(StringComparer.Ordinal)];

    [Theory]
    [InlineData("Value:0.0000000000000000000123456789", "items/short")]
    [InlineData("Value:1.23456789E-20", "items/short")]
    [InlineData("Value:1.2345678901234567E-20", "items/long")]
    [InlineData("Value:[0.0000000000000000000123456789 TO 0.0000000000000000000123456789]", "items/short")]
    [InlineData("Value:{0.0000000000000000000123456789 TO 1}", "items/long")]
    [InlineData("Value@dec:0.0000000000000000000123456789", "items/short")]
    [InlineData("Value@dec:[* TO 1}", "items/short")]
    public void A_number_a_decimal_does_not_hold_is_not_indexed_as_the_decimal_it_rounds_to(string query, string expected) =>
        Assert.Equal(expected.Split(','), Keys(query));
}
