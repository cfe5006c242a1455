using System.Text;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Lmdb;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Lmdb;

/// <summary>
/// Issue 20: a full disk and a map that may not grow are both a <see cref="StorageFullException"/> that says so;
/// the failed write stores nothing, and writes are accepted again once space is freed, without reopening.
/// </summary>
public sealed class LmdbStorageFullTests : IDisposable
{
    private static readonly string Pad = new('x', 16 * 1024);

    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [SmallDiskFact]
    public void A_write_on_a_full_disk_says_so_stores_nothing_and_writes_resume_once_space_is_freed()
    {
        using var disk = new SmallDisk(8);
        var filler = Path.Combine(disk.Path, "filler");
        File.WriteAllBytes(filler, new byte[2 * 1024 * 1024]);
        using var store = Open(StorageEngineKind.Lmdb, Path.Combine(disk.Path, "db"), mapSize: 64L * 1024 * 1024);
        var acknowledged = new List<string>();
        StorageFullException? full = null;
        for (var i = 0; i < 1000 && full is null; i++)
        {
            try
            {
                store.Put($"docs/{i}", Doc(i));
                acknowledged.Add($"docs/{i}");
            }
            catch (StorageFullException ex)
            {
                full = ex;
            }
        }

        Assert.NotNull(full);
        Assert.Contains("disk", full.Message, StringComparison.Ordinal);
        Assert.Contains("is full", full.Message, StringComparison.Ordinal);
        Assert.InRange(acknowledged.Count, 10, 999);
        var failedKey = $"docs/{acknowledged.Count}";
        Assert.Null(store.Get(failedKey));
        var counts = store.GetCounts();
        Assert.Equal(acknowledged.Count, counts.Documents);
        Assert.True(acknowledged.Count == counts.LastEtag, $"{acknowledged.Count} writes acknowledged, last etag {counts.LastEtag}");

        File.Delete(filler);
        var result = store.Put(failedKey, Doc(acknowledged.Count));

        Assert.Equal(counts.LastEtag + 1, result.Etag);
        for (var i = 0; i <= acknowledged.Count; i++)
            Assert.Equal(i, store.Get($"docs/{i}")!.Data.GetProperty("n").GetInt32());
    }

    [SmallDiskFact]
    public void A_backup_onto_a_full_disk_says_so_and_leaves_no_partial_copy()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        for (var i = 0; i < 400; i++)
            store.Put($"docs/{i}", Doc(i), mode: CommitMode.Lazy);
        using var disk = new SmallDisk(2);
        var target = Path.Combine(disk.Path, "backup");

        var ex = Assert.Throws<StorageFullException>(() => store.Backup(target));

        Assert.Contains("is full", ex.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(target));
        store.Put("docs/after", Doc(400)); // the database itself is unaffected
    }

    [Fact]
    public void A_map_at_its_limit_says_so_stores_nothing_and_keeps_what_was_written()
    {
        // A map filled to its last page cannot take even a delete (LMDB copies pages on every write), so the way
        // out is a larger limit: the data written before is all there when the database is opened with one.
        const long oneMiB = 1024 * 1024;
        var value = Encoding.UTF8.GetBytes(Pad);
        var written = 0;
        using (var engine = new LmdbStorageEngine(_dir.Path, oneMiB, maxMapSize: 2 * oneMiB))
        {
            var table = engine.OpenTable("t");
            var ex = Assert.Throws<StorageFullException>(() =>
            {
                for (; written < 1000; written++)
                    engine.Write(tx => { tx.Put(table, Key(written), value); return 0; });
            });

            Assert.Contains("map is full", ex.Message, StringComparison.Ordinal);
            Assert.Equal(2 * oneMiB, engine.MapSize);
            Assert.InRange(written, 10, 999);
            using var read = engine.BeginRead();
            Assert.False(read.TryGet(table, Key(written), out _));
            Assert.True(read.TryGet(table, Key(written - 1), out _));
        }

        using var larger = new LmdbStorageEngine(_dir.Path, oneMiB, maxMapSize: 4 * oneMiB);
        var same = larger.OpenTable("t");
        larger.Write(tx => { tx.Put(same, Key(written), value); return 0; });
        using var after = larger.BeginRead();
        for (var i = 0; i <= written; i++)
            Assert.True(after.TryGet(same, Key(i), out var stored) && stored.SequenceEqual(value), $"value {i}");
    }

    [Fact]
    public void No_space_left_from_LMDB_is_a_StorageFullException_that_says_the_disk_is_full()
    {
        var ex = LmdbErrors.ToException(28, "Committing the write transaction");
        var full = Assert.IsType<StorageFullException>(ex);
        Assert.StartsWith("The disk holding the database is full", full.Message, StringComparison.Ordinal);
        Assert.IsNotType<StorageFullException>(LmdbErrors.ToException(5, "Committing the write transaction"));
    }

    private static DocumentContent Doc(int n) => Json($$"""{"n":{{n}},"pad":"{{Pad}}"}""");

    private static byte[] Key(int n) => Encoding.UTF8.GetBytes($"k{n:D4}");
}
