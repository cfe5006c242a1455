using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Indexing;

public sealed class RestartTests : IDisposable
{
    private readonly IndexingDatabase _db = new();

    public RestartTests()
    {
        _db.Db.PutIndex(IndexDefinition.FromJson("""
            {"Name": "Carts/ByProduct", "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"},
                                                   {"Name": "Stuff", "Path": "otherStuff", "Analysis": "FullText"}]}
            """));
        _db.Db.Batch(Enumerable.Range(0, 500).Select(i => BatchCommand.Put($"carts/{i}", IndexingDatabase.SeedData, IndexingDatabase.SeedMetadata))
            .Append(BatchCommand.Put("users/1", IndexingDatabase.Json("""{"otherStuff": "Hello World"}"""), IndexingDatabase.Entity("User")))
            .ToList());
    }

    public void Dispose() => _db.Dispose();

    private (int, int, int, int) Answers() => (
        _db.Query(IndexingDatabase.ByEntityName, "Tag:Item", pageSize: 0).TotalResults,
        _db.Query(IndexingDatabase.ByEntityName, "Tag:User", pageSize: 0).TotalResults,
        _db.Query("Carts/ByProduct", "ProductId:42", pageSize: 0).TotalResults,
        _db.Query("Carts/ByProduct", "Stuff:hello", pageSize: 0).TotalResults);

    [Fact]
    public void Close_and_reopen_the_indexes_answer_without_re_indexing()
    {
        var before = Answers();
        var progress = _db.Db.GetIndexStatistics().Select(s => (s.Name, s.LastIndexedEtag)).ToList();

        _db.Reopen();

        Assert.Equal((500, 1, 500, 1), before);
        Assert.Equal(before, Answers());
        var stats = _db.Db.GetIndexStatistics();
        Assert.Equal(progress, stats.Select(s => (s.Name, s.LastIndexedEtag)));
        Assert.All(stats, s => Assert.Equal(0, s.DocumentsIndexedSinceOpen));
    }

    [Fact]
    public void Delete_an_index_folder_while_closed_reopen_it_is_rebuilt_and_answers_the_same()
    {
        var before = Answers();

        _db.Reopen(whileClosed: () => Directory.Delete(
            Path.Combine(_db.Directory, "Indexes", IndexName.ToFolderName("Carts/ByProduct")), recursive: true));

        Assert.Equal(before, Answers());
        Assert.Contains(_db.LogLines, l => l.Contains("Carts/ByProduct", StringComparison.Ordinal) && l.Contains("rebuilding", StringComparison.Ordinal));
        var stats = _db.Db.GetIndexStatistics().ToDictionary(s => s.Name);
        Assert.Equal(501, stats["Carts/ByProduct"].DocumentsIndexedSinceOpen);
        Assert.Equal(0, stats[IndexingDatabase.ByEntityName].DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void The_whole_indexes_folder_deleted_while_closed_is_rebuilt_too()
    {
        var before = Answers();

        _db.Reopen(whileClosed: () => Directory.Delete(Path.Combine(_db.Directory, "Indexes"), recursive: true));

        Assert.Equal(before, Answers());
    }

    [Fact]
    public void Dispose_stops_the_indexer_and_is_idempotent()
    {
        _db.Db.Dispose();
        _db.Db.Dispose();
        Assert.Throws<ObjectDisposedException>(() => _db.Db.Query(IndexingDatabase.ByEntityName, new IndexQuery()));
        _db.Reopen();
        Assert.Equal((500, 1, 500, 1), Answers());
    }
}
