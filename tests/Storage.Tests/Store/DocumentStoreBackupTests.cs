using System.Collections.Concurrent;
using System.Text;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

/// <summary>Issue 20: a hot backup is a consistent copy taken while reads and writes go on.</summary>
public sealed class DocumentStoreBackupTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly TempDirectory _backups = new();

    public void Dispose()
    {
        _dir.Dispose();
        _backups.Dispose();
    }

    [Fact]
    public async Task A_backup_taken_during_writes_holds_exactly_the_writes_up_to_its_etag()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        var acknowledged = new ConcurrentQueue<(string Key, long Etag, string Json)>();
        for (var i = 0; i < 2000; i++)
            Write(store, acknowledged, i);
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(() =>
        {
            var n = 2000;
            while (!stop.IsCancellationRequested)
                Write(store, acknowledged, n++);
            return n - 2000;
        });
        var reader = Task.Run(() =>
        {
            var reads = 0;
            while (!stop.IsCancellationRequested)
            {
                Assert.NotNull(store.Get($"docs/{reads % 200}"));
                reads++;
            }
            return reads;
        });
        while (acknowledged.Count < 2100 && !writer.IsCompleted)
            await Task.Delay(1); // the writer is under way before the copy starts (a writer that failed is awaited below)

        var backup = store.Backup(Path.Combine(_backups.Path, "b1"));
        var writtenAfter = acknowledged.Count;
        while (acknowledged.Count < writtenAfter + 100 && !writer.IsCompleted)
            await Task.Delay(1); // and goes on after it
        await stop.CancelAsync();
        var writes = await writer;
        Assert.True(writes > 100, $"only {writes} writes ran beside the backup");
        Assert.True(await reader > 0);

        var expected = acknowledged.Where(w => w.Etag <= backup.LastEtag)
            .GroupBy(w => w.Key).Select(g => g.MaxBy(w => w.Etag)).ToDictionary(w => w.Key);
        Assert.True(backup.LastEtag < store.GetCounts().LastEtag, "writes went on after the copy began");
        Assert.Equal(expected.Count, backup.Documents);
        using var restored = DocumentStore.Open(new StorageOptions { DataDirectory = backup.Folder });
        Assert.Equal(backup.LastEtag, restored.GetCounts().LastEtag);
        var documents = restored.GetDocumentsAfterEtag(0, int.MaxValue);
        Assert.Equal(expected.Count, documents.Count);
        foreach (var document in documents)
        {
            var write = expected[document.Key];
            Assert.Equal(write.Etag, document.Etag);
            Assert.Equal(write.Json, Encoding.UTF8.GetString(document.DataJson.Span));
        }
    }

    [Fact]
    public void A_backup_leaves_out_free_pages_and_opens_as_a_data_directory()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        var big = new string('x', 4000);
        for (var i = 0; i < 500; i++)
            store.Put($"docs/{i}", Json($$"""{"n":{{i}},"pad":"{{big}}"}"""), mode: CommitMode.Lazy);
        for (var i = 0; i < 450; i++)
            store.Delete($"docs/{i}", mode: CommitMode.Lazy);

        var backup = store.Backup(Path.Combine(_backups.Path, "b2"));

        var original = new FileInfo(Path.Combine(_dir.Path, "lmdb", "data.mdb")).Length;
        Assert.True(backup.Bytes < original / 2, $"the copy has {backup.Bytes} bytes, the original {original}");
        Assert.Equal(50, backup.Documents);
        Assert.Equal(["lmdb"], Directory.GetFileSystemEntries(backup.Folder).Select(Path.GetFileName));
        Assert.Equal(["data.mdb"], Directory.GetFiles(Path.Combine(backup.Folder, "lmdb")).Select(Path.GetFileName));
        using var restored = Open(StorageEngineKind.Lmdb, backup.Folder);
        Assert.Equal(499, restored.Get("docs/499")!.Data.GetProperty("n").GetInt32());
        Assert.Null(restored.Get("docs/0"));
        restored.Put("docs/new", Json("""{"after":"restore"}""")); // a restored copy takes writes
    }

    [Fact]
    public void A_backup_into_a_folder_that_is_not_empty_is_refused_and_touches_nothing()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        store.Put("docs/1", Json("""{"a":1}"""));
        var target = Path.Combine(_backups.Path, "used");
        Directory.CreateDirectory(target);
        File.WriteAllText(Path.Combine(target, "keep.txt"), "mine");

        var ex = Assert.Throws<ArgumentException>(() => store.Backup(target));

        Assert.Contains("not empty", ex.Message, StringComparison.Ordinal);
        Assert.Equal(["keep.txt"], Directory.GetFileSystemEntries(target).Select(Path.GetFileName));
    }

    private static void Write(DocumentStore store, ConcurrentQueue<(string, long, string)> acknowledged, int n)
    {
        var key = $"docs/{n % 500}"; // overwrites, so the copy must hold the right version of each
        var json = $$"""{"n":{{n}},"text":"write {{n}}"}""";
        var result = store.Put(key, Json(json), mode: CommitMode.Lazy);
        acknowledged.Enqueue((key, result.Etag, json));
    }
}
