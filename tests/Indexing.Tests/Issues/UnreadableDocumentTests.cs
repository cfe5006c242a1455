using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>Issue 11: the indexer never stalls on one document it cannot read or map.</summary>
public sealed class UnreadableDocumentTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public void A_document_whose_stored_bytes_cannot_be_read_is_an_indexing_error_and_the_index_catches_up()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Names"));
        using (_db.Indexes.PauseIndexing())
        {
            _db.Put("people/1", """{"name": "a"}""", "Person");
            _db.Put("people/2", """{"name": "b"}""", "Person");
            _db.Put("people/3", """{"name": "c"}""", "Person");
            Damage("people/2");
            _db.Documents.ClearCache();
        }

        var result = _db.Query(TestDefinitions.ByEntityName, "Tag:Person");

        Assert.False(result.IsStale);
        Assert.Equal(["people/1", "people/3"], TestIndexes.Keys(result));
        Assert.Equal(["people/1", "people/3"], TestIndexes.Keys(_db.Query("Names", "Value:*")));
        foreach (var stats in _db.Indexes.GetStatistics())
        {
            Assert.Equal(1, stats.ErrorCount);
            Assert.Equal("people/2", stats.LastError!.DocumentKey);
            Assert.Contains("could not be read", stats.LastError.Message, StringComparison.Ordinal);
            Assert.False(stats.IsStale);
        }
    }

    [Fact]
    public void A_document_that_cannot_be_mapped_is_an_indexing_error_and_the_index_catches_up()
    {
        _db.Indexes.PutIndex(TestDefinitions.Simple("Numbers", path: "n", sort: "Long"));
        _db.Put("things/1", """{"n": 1}""");
        _db.Put("things/2", """{"n": {"deep": "object"}}""");
        _db.Put("things/3", """{"n": 3}""");

        var result = _db.Query("Numbers", "Value:[0 TO 10]");

        Assert.False(result.IsStale);
        Assert.Equal(["things/1", "things/3"], TestIndexes.Keys(result));
        Assert.Equal("things/2", _db.Indexes.GetStatistics("Numbers").LastError!.DocumentKey);
    }

    /// <summary>Cuts the stored record short, as a damaged disk would: the header reads, the data BSON does not.</summary>
    private void Damage(string key)
    {
        var table = _db.Documents.Engine.OpenTable("documents");
        var storageKey = System.Text.Encoding.UTF8.GetBytes(key);
        _db.Documents.Engine.Write(tx =>
        {
            Assert.True(tx.TryGet(table, storageKey, out var record));
            var damaged = record[..^3].ToArray();
            tx.Put(table, storageKey, damaged);
            return 0;
        });
    }
}
