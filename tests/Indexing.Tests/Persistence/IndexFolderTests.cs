using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>What opening an index folder does with what it finds there.</summary>
public sealed class IndexFolderTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public IndexFolderTests()
    {
        _db.Indexes.PutIndex(TestDefinitions.CartsByProduct);
        for (var i = 0; i < 20; i++)
            _db.Put($"carts/{i}", $$"""{"cartId": {{i}}, "itemList": [{"productId": {{i % 3}}}]}""", "Item");
    }

    public void Dispose() => _db.Dispose();

    private string Folder => Path.Combine(_db.IndexesDirectory, IndexName.ToFolderName("Carts/ByProduct"));

    private int ProductZero() => _db.Query("Carts/ByProduct", "ProductId:0", pageSize: 0).TotalResults;

    [Fact]
    public void A_folder_in_the_old_in_house_format_is_rebuilt_on_open_with_one_log_line()
    {
        var before = ProductZero();
        _db.Close();
        Directory.Delete(Folder, recursive: true);
        Directory.CreateDirectory(Path.Combine(Folder, "lmdb"));
        File.WriteAllBytes(Path.Combine(Folder, "lmdb", "data.mdb"), new byte[8192]);

        _db.Open();

        Assert.Equal(7, before);
        Assert.Equal(before, ProductZero());
        var line = Assert.Single(_db.LogLines, l => l.Contains("'Carts/ByProduct'", StringComparison.Ordinal));
        Assert.Contains("old in-house format", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(Folder, "lmdb")));
        Assert.Equal(20, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void A_leftover_write_lock_after_a_kill_does_not_stop_the_index_opening()
    {
        var before = ProductZero();
        _db.Close();
        File.WriteAllBytes(Path.Combine(Folder, "write.lock"), []);

        _db.Open();

        Assert.Equal(before, ProductZero());
        Assert.Empty(_db.LogLines);
        Assert.Equal(0, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
    }

    [Fact]
    public void The_index_folder_holds_a_Lucene_index_whose_commit_carries_the_progress()
    {
        ProductZero();
        var progress = _db.Indexes.GetStatistics("Carts/ByProduct").LastIndexedEtag;
        _db.Close();

        Assert.Contains(Directory.GetFiles(Folder), f => Path.GetFileName(f).StartsWith("segments_", StringComparison.Ordinal));
        using var directory = new Lucene.Net.Store.NIOFSDirectory(new DirectoryInfo(Folder));
        var commit = new Lucene.Net.Index.SegmentInfos();
        commit.Read(directory);
        Assert.Equal(progress.ToString(System.Globalization.CultureInfo.InvariantCulture), commit.UserData["ravenlite.last-indexed-etag"]);
        _db.Open();
    }
}
