using System.Text;
using System.Text.Json;
using RavenLite.Database.Tests.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Backups;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Backups;

/// <summary>Issue 20: a backup of a live database restores to exactly the documents up to its etag, indexes included.</summary>
public sealed class DatabaseBackupTests : IDisposable
{
    private const int Seeded = 2000;
    private readonly IndexingDatabase _db = new();
    private readonly string _backup = Path.Combine(Path.GetTempPath(), "ravenlite-tests", "backup-" + Guid.NewGuid().ToString("N"));
    private readonly string _restored = Path.Combine(Path.GetTempPath(), "ravenlite-tests", "restored-" + Guid.NewGuid().ToString("N"));

    /// <summary>Every acknowledged write in etag order: the key, and the data JSON (null for a delete).</summary>
    private readonly List<(long Etag, string Key, string? Json)> _writes = [];

    public DatabaseBackupTests()
    {
        _db.Db.PutIndex(IndexDefinition.FromJson("""{"Name": "Items/ByVersion", "Fields": [{"Name": "V", "Path": "v"}]}"""));
        for (var i = 0; i < Seeded; i++)
            Put($"items/{i}", i, 0);
    }

    public void Dispose()
    {
        _db.Dispose();
        foreach (var folder in new[] { _backup, _restored })
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task A_backup_taken_during_writes_restores_exactly_the_documents_up_to_its_etag_and_indexes_that_agree()
    {
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(() => WriteUntil(stop.Token));
        await WaitForWrites(Seeded + 500);
        var steps = new List<BackupProgress>();

        var manifest = await _db.Db.BackupAsync(_backup, new SyncProgress<BackupProgress>(steps.Add));
        var writtenDuringBackup = _writes.Count;
        await WaitForWrites(writtenDuringBackup + 200);
        await stop.CancelAsync();
        await writer;

        Assert.InRange(manifest.LastEtag, Seeded + 500, _writes[^1].Etag - 200);
        Assert.Equal([BackupProgress.DocumentsStep, BackupProgress.IndexesStep, BackupProgress.ManifestStep],
            steps.Where(s => s.Finished).Select(s => s.Step));
        Assert.Contains(manifest.Files, f => f.Path.StartsWith("Indexes/", StringComparison.Ordinal));

        var expected = StateAt(manifest.LastEtag);
        Assert.Equal(expected.Count, manifest.Documents);
        DocumentDatabase.Restore(_backup, _restored);
        using var restored = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _restored, MapSize = 256L << 20 });

        Assert.Equal(manifest.LastEtag, restored.GetStatistics().LastEtag);
        var stored = restored.GetDocuments(0, int.MaxValue);
        Assert.Equal(expected.Keys.Order(StringComparer.OrdinalIgnoreCase), stored.Select(d => d.Key).Order(StringComparer.OrdinalIgnoreCase));
        foreach (var document in stored)
            Assert.Equal(expected[document.Key], Encoding.UTF8.GetString(document.DataJson.Span));

        var byVersion = expected.Values.GroupBy(json => JsonDocument.Parse(json).RootElement.GetProperty("v").GetInt32())
            .ToDictionary(g => g.Key, g => g.Count());
        foreach (var (version, count) in byVersion)
            Assert.Equal(count, Query(restored, "Items/ByVersion", $"V:{version}"));
        Assert.Equal(expected.Count, Query(restored, IndexingDatabase.ByEntityName, "Tag:Item"));
        Assert.All(restored.GetIndexStatistics(), s => Assert.Equal(0, s.ErrorCount));
    }

    [Fact]
    public void A_backup_restores_its_indexes_from_their_copied_commits_without_rebuilding_them()
    {
        Assert.Equal(Seeded, Query(_db.Db, "Items/ByVersion", "V:0"));
        Assert.Equal(Seeded, Query(_db.Db, IndexingDatabase.ByEntityName, "Tag:Item"));
        var manifest = _db.Db.Backup(_backup);
        DocumentDatabase.Restore(_backup, _restored);
        using var restored = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _restored, MapSize = 256L << 20 });

        Assert.Equal(Seeded, manifest.Documents);
        Assert.Equal(Seeded, Query(restored, "Items/ByVersion", "V:0"));
        // An index opened from its copied commit has nothing left to index; a rebuilt one would have indexed every document.
        Assert.All(restored.GetIndexStatistics(), s => Assert.Equal(0, s.DocumentsIndexedSinceOpen));
    }

    [Fact]
    public void A_damaged_backup_is_refused_naming_the_file_and_restores_nothing()
    {
        var manifest = _db.Db.Backup(_backup);
        var indexFile = manifest.Files.First(f => f.Path.StartsWith("Indexes/", StringComparison.Ordinal) && f.Bytes > 0);
        var path = Path.Combine(_backup, indexFile.Path);
        var bytes = File.ReadAllBytes(path);
        bytes[bytes.Length / 2] ^= 0xFF;
        File.WriteAllBytes(path, bytes);

        var refused = Assert.Throws<InvalidDataException>(() => DocumentDatabase.Restore(_backup, _restored));

        Assert.Contains("damaged", refused.Message, StringComparison.Ordinal);
        Assert.Contains(indexFile.Path, refused.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_restored) && Directory.EnumerateFileSystemEntries(_restored).Any());
    }

    [Fact]
    public void A_backup_into_a_folder_that_is_not_empty_is_refused_and_leaves_it_alone()
    {
        Directory.CreateDirectory(_backup);
        File.WriteAllText(Path.Combine(_backup, "keep.txt"), "mine");

        Assert.Throws<ArgumentException>(() => _db.Db.Backup(_backup));

        Assert.Equal(["keep.txt"], Directory.EnumerateFileSystemEntries(_backup).Select(Path.GetFileName));
    }

    private void WriteUntil(CancellationToken stop)
    {
        var random = new Random(20);
        for (var n = Seeded; !stop.IsCancellationRequested; n++)
        {
            var existing = $"items/{random.Next(Seeded)}";
            switch (n % 5)
            {
                case 0:
                    var result = _db.Db.Batch([BatchCommand.Delete(existing)])[0];
                    if (result.Deleted)
                        Record(result.Etag!.Value, existing, null);
                    break;
                case 1 or 2:
                    Put(existing, n, n % 7);
                    break;
                default:
                    Put($"items/{n}", n, n % 7);
                    break;
            }
        }
    }

    private void Put(string key, int n, int version)
    {
        var json = $$"""{"n":{{n}},"v":{{version}}}""";
        var result = _db.Db.Put(key, DocumentContent.FromJson(json), IndexingDatabase.Entity("Item"));
        Record(result.Etag, key, json);
    }

    private void Record(long etag, string key, string? json)
    {
        lock (_writes)
            _writes.Add((etag, key, json));
    }

    private async Task WaitForWrites(int count)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (true)
        {
            Assert.True(DateTime.UtcNow < deadline, $"the writer did not reach {count} writes within 60 s");
            lock (_writes)
            {
                if (_writes.Count >= count)
                    return;
            }
            await Task.Delay(5);
        }
    }

    private Dictionary<string, string> StateAt(long etag)
    {
        var state = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        lock (_writes)
        {
            foreach (var (at, key, json) in _writes.Where(w => w.Etag <= etag))
            {
                if (json is null)
                    state.Remove(key);
                else
                    state[key] = json;
            }
        }
        return state;
    }

    private static int Query(DocumentDatabase database, string index, string query) =>
        database.Query(index, new IndexQuery { Query = query, PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromSeconds(60) })
            .TotalResults;

    /// <summary>Reports on the caller's thread, in order (<see cref="Progress{T}"/> posts to the thread pool).</summary>
    private sealed class SyncProgress<T>(Action<T> report) : IProgress<T>
    {
        public void Report(T value) => report(value);
    }
}
