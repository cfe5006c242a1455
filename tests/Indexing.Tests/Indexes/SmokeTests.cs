using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class SmokeTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Tag_query_finds_documents_by_entity_name()
    {
        _db.Put("carts/1", """{"a":1}""", "Item");
        _db.Put("users/1", """{"a":1}""", "User");

        var result = _db.Query(BuiltInIndexes.DocumentsByEntityNameName, "Tag:Item");

        Assert.Equal(["carts/1"], TestIndexes.Keys(result));
        Assert.Equal(1, result.TotalResults);
        Assert.False(result.IsStale);
    }
}
