using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

/// <summary>Issue 20: offline compaction shrinks the data file after large deletes and keeps every document.</summary>
public sealed class DocumentStoreCompactionTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Compaction_after_large_deletes_shrinks_the_file_and_keeps_every_document_and_count()
    {
        Dictionary<string, (long Etag, string Json)> kept = [];
        DocumentCounts countsBefore;
        var pad = new string('p', 3000);
        using (var store = Open(StorageEngineKind.Lmdb, _dir.Path))
        {
            for (var i = 0; i < 1000; i++)
                store.Put($"docs/{i}", Json($$"""{"n":{{i}},"pad":"{{pad}}"}"""), Entity(i % 2 == 0 ? "Even" : "Odd"), mode: CommitMode.Lazy);
            for (var i = 0; i < 1000; i++)
            {
                if (i % 10 != 0)
                    store.Delete($"docs/{i}", mode: CommitMode.Lazy);
            }
            store.Put("docs/last", Json("""{"last":true}"""));
            foreach (var document in store.GetDocumentsAfterEtag(0, int.MaxValue))
                kept[document.Key] = (document.Etag, System.Text.Encoding.UTF8.GetString(document.DataJson.Span));
            countsBefore = store.GetCounts();
        }

        var result = DocumentStore.Compact(_dir.Path);

        Assert.Equal(new FileInfo(Path.Combine(_dir.Path, "lmdb", "data.mdb")).Length, result.BytesAfter);
        Assert.True(result.BytesAfter < result.BytesBefore / 3, $"{result.BytesBefore} -> {result.BytesAfter} bytes");
        Assert.False(Directory.Exists(Path.Combine(_dir.Path, "lmdb.compacting")));
        using (var store = Open(StorageEngineKind.Lmdb, _dir.Path))
        {
            var documents = store.GetDocumentsAfterEtag(0, int.MaxValue);
            Assert.Equal(kept.Count, documents.Count);
            foreach (var document in documents)
                Assert.Equal(kept[document.Key], (document.Etag, System.Text.Encoding.UTF8.GetString(document.DataJson.Span)));
            var counts = store.GetCounts();
            Assert.Equal(countsBefore.Documents, counts.Documents);
            Assert.Equal(countsBefore.LastEtag, counts.LastEtag);
            Assert.Equal(countsBefore.ByEntityName, counts.ByEntityName);
            Assert.Equal(countsBefore.LastEtag + 1, store.Put("docs/after", Json("""{"a":1}""")).Etag);
        }
    }

    [Fact]
    public void Compaction_of_an_open_database_is_refused_and_changes_nothing()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        store.Put("docs/1", Json("""{"a":1}"""));
        var before = File.ReadAllBytes(Path.Combine(_dir.Path, "lmdb", "data.mdb"));

        var ex = Assert.Throws<IOException>(() => DocumentStore.Compact(_dir.Path));

        Assert.Contains("already open", ex.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(Path.Combine(_dir.Path, "lmdb", "data.mdb")));
        Assert.NotNull(store.Get("docs/1"));
    }

    [Fact]
    public void Compaction_of_a_folder_without_a_database_is_refused()
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentStore.Compact(_dir.Path));
        Assert.Contains("no LMDB database", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_scratch_folder_left_by_a_crashed_compaction_is_cleared()
    {
        using (var store = Open(StorageEngineKind.Lmdb, _dir.Path))
            store.Put("docs/1", Json("""{"a":1}"""));
        var scratch = Directory.CreateDirectory(Path.Combine(_dir.Path, "lmdb.compacting")).FullName;
        File.WriteAllText(Path.Combine(scratch, "data.mdb"), "half a copy");

        DocumentStore.Compact(_dir.Path);

        Assert.False(Directory.Exists(scratch));
        using var reopened = Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.NotNull(reopened.Get("docs/1"));
    }
}
