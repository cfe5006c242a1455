using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// <c>sort=Rank</c> on a typed field holding numbers sorted by the field's strings, which numbers do not have: every
/// number sorted as missing and the page came back in index order, silently. Such a sort is now refused, naming
/// the kinds that sort numbers; a typed field of strings still sorts by itself.
/// </summary>
public sealed class TextSortOfNumbersTests : IDisposable
{
    private const string Index = "Items/ByRank";
    private readonly TestIndexes _db = new();

    public TextSortOfNumbersTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple(Index, path: "rank", analysis: "Typed", sort: "None"));
    }

    public void Dispose() => _db.Dispose();

    private IReadOnlyList<string> Keys(params string[] sortBy) =>
        [.. _db.Query(Index, "*:*", sortBy: sortBy).Results.Select(d => d.Key)];

    [Fact]
    public void Sorting_a_typed_field_of_numbers_by_itself_is_refused()
    {
        _db.Put("items/1", """{"rank":3}""");
        _db.Put("items/2", """{"rank":1}""");
        _db.Put("items/3", """{"rank":2}""");

        var ex = Assert.Throws<ArgumentException>(() => Keys("Value"));
        Assert.Contains("'Value@dec'", ex.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => Keys("-Value"));
        Assert.Equal(["items/2", "items/3", "items/1"], Keys("Value@dec"));
        Assert.Equal(["items/1", "items/3", "items/2"], Keys("-Value@num"));
    }

    [Fact]
    public void A_typed_field_of_strings_sorts_by_itself()
    {
        _db.Put("items/1", """{"rank":"c"}""");
        _db.Put("items/2", """{"rank":"a"}""");
        _db.Put("items/3", """{"rank":null}""");

        Assert.Equal(["items/3", "items/2", "items/1"], Keys("Value"));
    }
}
