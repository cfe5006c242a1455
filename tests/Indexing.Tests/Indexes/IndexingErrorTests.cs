using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class IndexingErrorTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void A_document_the_index_cannot_read_is_recorded_and_the_index_carries_on()
    {
        _db.Indexes.PutIndex(IndexDefinition.FromJson("""
            {"Name": "Orders", "Fields": [{"Name": "Lines", "Path": "lines"},
                                          {"Name": "Total", "Path": "total", "Sort": "Long"},
                                          {"Name": "Id", "Path": "id"}]}
            """));
        _db.Put("orders/1", """{"id": "a", "lines": [1, 2], "total": 3}""");
        _db.Put("orders/2", """{"id": "b", "lines": 5, "total": "lots"}""");
        _db.Put("orders/3", """{"id": "c", "lines": 6, "total": 4}""");

        Assert.Equal(["orders/1", "orders/2", "orders/3"], TestIndexes.Keys(_db.Query("Orders", "Id:*")));
        Assert.Equal(["orders/1", "orders/3"], TestIndexes.Keys(_db.Query("Orders", "Total:[0 TO 10]")));
        Assert.Equal(["orders/3"], TestIndexes.Keys(_db.Query("Orders", "Lines:6")));

        var stats = _db.Indexes.GetStatistics("Orders");
        Assert.Equal(2, stats.ErrorCount);
        Assert.Equal(3, stats.DocumentCount);
        var last = stats.LastError!;
        Assert.Equal("orders/2", last.DocumentKey);
        Assert.Equal("Orders", last.Index);
        Assert.Contains("'lots' is not a whole number", last.Message, StringComparison.Ordinal);

        _db.Reopen();
        Assert.Equal(2, _db.Indexes.GetStatistics("Orders").ErrorCount);
        Assert.Equal("orders/2", _db.Indexes.GetStatistics("Orders").LastError!.DocumentKey);
    }
}
