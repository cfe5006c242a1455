using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Indexes;

public sealed class DurabilityTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 64);

    public DurabilityTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);
        _db.Documents.Batch(Enumerable.Range(0, 200).Select(i => BatchCommand.Put($"carts/{i}", SeedCart.Data, SeedCart.Metadata)).ToList());
        _db.Put("carts/x", """{"cartId": 5, "itemList": [{"productId": 1, "price": 2}]}""", "Item");
        _db.Documents.Delete("carts/0");
    }

    public void Dispose() => _db.Dispose();

    private (int Tag, int Product, int Range) Answers() => (
        _db.Query(TestDefinitions.ByEntityName, "Tag:Item").TotalResults,
        _db.Query("Carts/ByProduct", "ProductId:42").TotalResults,
        _db.Query("Carts/ByProduct", "Price:[1 TO 3]").TotalResults);

    [Fact]
    public void After_a_restart_the_indexes_answer_without_indexing_anything_again()
    {
        var before = Answers();
        var etags = _db.Indexes.GetStatistics().Select(s => s.LastIndexedEtag).ToList();

        _db.Reopen();

        Assert.Equal(before, Answers());
        Assert.Equal((200, 199, 1), before);
        var stats = _db.Indexes.GetStatistics();
        Assert.All(stats, s => Assert.Equal(0, s.DocumentsIndexedSinceOpen));
        Assert.Equal(etags, stats.Select(s => s.LastIndexedEtag));
        Assert.Empty(_db.LogLines);
    }

    [Fact]
    public void An_index_folder_deleted_while_closed_is_rebuilt_and_answers_the_same()
    {
        var before = Answers();
        _db.Close();
        Directory.Delete(Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName("Carts/ByProduct")), recursive: true);
        Directory.Delete(Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName(BuiltInIndexes.DocumentsByEntityNameName)), recursive: true);

        _db.Open();

        Assert.Equal(before, Answers());
        Assert.Contains(_db.LogLines, line => line.Contains("'Carts/ByProduct'", StringComparison.Ordinal) && line.Contains("missing; rebuilding", StringComparison.Ordinal));
        Assert.Contains(_db.LogLines, line => line.Contains("'Raven/DocumentsByEntityName'", StringComparison.Ordinal));
        Assert.Equal(200, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void An_unreadable_index_folder_is_thrown_away_and_rebuilt()
    {
        var before = Answers();
        _db.Close();
        var folder = Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName("Carts/ByProduct"));
        foreach (var file in Directory.GetFiles(folder, "*", SearchOption.AllDirectories))
            File.WriteAllBytes(file, Enumerable.Repeat((byte)0xAB, 64 * 1024).ToArray());

        _db.Open();

        Assert.Equal(before, Answers());
        Assert.Contains(_db.LogLines, line => line.Contains("could not be read", StringComparison.Ordinal));
    }

    [Fact]
    public void A_half_finished_index_folder_is_rebuilt()
    {
        var before = Answers();
        _db.Close();
        var folder = Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName("Carts/ByProduct"));
        Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);

        _db.Open();

        Assert.Equal(before, Answers());
    }

    [Fact]
    public void Definitions_survive_a_restart()
    {
        _db.Reopen();

        Assert.NotNull(_db.Indexes.GetIndexDefinition("carts/byproduct"));
        Assert.Equal(["Carts/ByProduct", "Raven/DocumentsByEntityName"], _db.Indexes.GetIndexDefinitions().Select(d => d.Name));
    }

    [Fact]
    public void Indexing_resumes_where_it_stopped()
    {
        Answers(); // caught up
        using (_db.Indexes.PauseIndexing())
        {
            _db.Put("carts/late", """{"cartId": 9, "itemList": [{"productId": 77}]}""", "Item");
            _db.Reopen(); // closed before the indexer saw the write
        }

        Assert.Equal(["carts/late"], TestIndexes.Keys(_db.Query("Carts/ByProduct", "ProductId:77")));
        Assert.Equal(1, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void An_index_ahead_of_the_database_is_rebuilt()
    {
        Answers();
        _db.Close();
        var documents = Path.Combine(_db.Directory, "lmdb");
        var backup = Path.Combine(_db.Directory, "backup");
        Directory.CreateDirectory(backup);
        foreach (var file in Directory.GetFiles(documents))
            File.Copy(file, Path.Combine(backup, Path.GetFileName(file)));
        _db.Open();
        _db.Put("carts/lost", """{"cartId": 1, "itemList": [{"productId": 1234}]}""", "Item");
        Assert.Single(TestIndexes.Keys(_db.Query("Carts/ByProduct", "ProductId:1234")));
        _db.Close();
        foreach (var file in Directory.GetFiles(backup))
            File.Copy(file, Path.Combine(documents, Path.GetFileName(file)), overwrite: true);

        _db.Open();
        _db.Put("carts/new", """{"cartId": 2, "itemList": [{"productId": 5678}]}""", "Item");

        Assert.Empty(TestIndexes.Keys(_db.Query("Carts/ByProduct", "ProductId:1234")));
        Assert.Equal(["carts/new"], TestIndexes.Keys(_db.Query("Carts/ByProduct", "ProductId:5678")));
        Assert.Contains(_db.LogLines, line => line.Contains("but the database is only at etag", StringComparison.Ordinal));
    }
}
