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

    [Fact]
    public void An_index_in_the_first_Lucene_layout_is_rebuilt_on_open_and_answers_from_the_new_layout()
    {
        var expected = _db.Query("Carts/ByProduct", "ProductId:0", pageSize: 100).Results.Select(d => (d.Key, d.Etag)).ToList();
        _db.Close();
        WriteFirstLayoutIndex();

        _db.Open();

        var rebuilt = _db.Query("Carts/ByProduct", "ProductId:0", pageSize: 100);
        Assert.Equal(7, expected.Count);
        Assert.Equal(expected, rebuilt.Results.Select(d => (d.Key, d.Etag)).ToList());
        var line = Assert.Single(_db.LogLines, l => l.Contains("'Carts/ByProduct'", StringComparison.Ordinal));
        Assert.Contains("format 'ravenlite-lucene-1'", line, StringComparison.Ordinal);
        Assert.Equal(20, _db.Indexes.GetStatistics("Carts/ByProduct").DocumentsIndexedSinceOpen);
    }

    /// <summary>
    /// Replaces the index with one as the first layout wrote it (binary doc values of the key, numeric doc values of the
    /// etag, format 'ravenlite-lucene-1'), complete and caught up, with one wrong key so a query served from it would show.
    /// </summary>
    private void WriteFirstLayoutIndex()
    {
        using var directory = new Lucene.Net.Store.NIOFSDirectory(new DirectoryInfo(Folder));
        var commit = new Lucene.Net.Index.SegmentInfos();
        commit.Read(directory);
        var userData = new Dictionary<string, string>(commit.UserData) { ["ravenlite.format"] = "ravenlite-lucene-1" };
        var config = new Lucene.Net.Index.IndexWriterConfig(Lucene.Net.Util.LuceneVersion.LUCENE_48, null)
        {
            OpenMode = Lucene.Net.Index.OpenMode.CREATE,
        };
        using var writer = new Lucene.Net.Index.IndexWriter(directory, config);
        for (var i = 0; i < 20; i++)
        {
            var key = i == 0 ? "carts/wrong" : $"carts/{i}";
            writer.AddDocument(new Lucene.Net.Documents.Document
            {
                new Lucene.Net.Documents.StringField("@key", key, Lucene.Net.Documents.Field.Store.NO),
                new Lucene.Net.Documents.BinaryDocValuesField("@key", new Lucene.Net.Util.BytesRef(key)),
                new Lucene.Net.Documents.NumericDocValuesField("@etag", i + 1),
                new Lucene.Net.Documents.StringField("ProductId", (i % 3).ToString(System.Globalization.CultureInfo.InvariantCulture), Lucene.Net.Documents.Field.Store.NO),
            });
        }
        writer.SetCommitData(userData);
        writer.Commit();
    }
}
