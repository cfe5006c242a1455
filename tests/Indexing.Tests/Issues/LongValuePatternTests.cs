using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// A value longer than a term keeps is indexed as its start, U+0001 and a hash: a pattern not anchored at the value's
/// start (<c>EndsWith</c>, <c>Contains</c>, wildcards, regular expressions) found nothing at its end and matched the
/// hash's letters (<c>*li*</c> matched 20,000 é's). Such patterns are now refused on a field holding a long value, and
/// answered as before on every other field; equality and prefixes stay exact on long values.
/// </summary>
public sealed class LongValuePatternTests : IDisposable
{
    private const string Index = "Words/ByText";
    private static readonly string s_long = new string('é', 20_000) + "z";
    private readonly TestIndexes _db = new();

    public LongValuePatternTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple(Index, path: "text"));
        _db.Put("words/0", """{"text":"alice"}""");
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(string query) => [.. _db.Query(Index, query).Results.Select(d => d.Key).Order(StringComparer.Ordinal)];

    [Theory]
    [InlineData("Value:*ice")]
    [InlineData("Value:*li*")]
    [InlineData("Value:a?ice")]
    [InlineData("Value:/.*ce/")]
    public void Patterns_not_anchored_at_the_start_answer_while_no_value_is_long(string query) =>
        Assert.Equal(["words/0"], Keys(query));

    [Theory]
    [InlineData("Value:*z")]
    [InlineData("Value:*li*")]
    [InlineData("Value:a?ice")]
    [InlineData("Value:/.*z/")]
    [InlineData("Value:alice OR Value:*z")]
    public void Patterns_not_anchored_at_the_start_are_refused_once_a_value_is_longer_than_a_term_keeps(string query)
    {
        _db.Put("words/1", $$"""{"text":"{{s_long}}"}""");

        var ex = Assert.Throws<QueryException>(() => _db.Query(Index, query));
        Assert.Contains("field 'Value' holds values longer than 16,384 bytes", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Equality_and_prefixes_stay_exact_on_long_values()
    {
        _db.Put("words/1", $$"""{"text":"{{s_long}}"}""");
        _db.Put("words/2", $$"""{"text":"{{s_long[..^1]}}y"}""");

        Assert.Equal(["words/1"], Keys($"Value:\"{s_long}\""));
        Assert.Equal(["words/1", "words/2"], Keys("Value:éé*"));
        Assert.Equal(["words/0"], Keys("Value:alice"));
        Assert.Equal(["words/0"], Keys("Value:al*"));
    }
}
