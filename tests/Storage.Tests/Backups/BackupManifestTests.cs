using System.Text;
using RavenLite.Storage.Backups;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Backups;

/// <summary>Issue 20: a backup carries a manifest (etag, time, version, checksums); a damaged or partial one is refused.</summary>
public sealed class BackupManifestTests : IDisposable
{
    private static readonly DateTimeOffset Taken = new(2026, 11, 24, 1, 2, 3, TimeSpan.Zero);

    private readonly TempDirectory _dir = new();
    private readonly string _backup;
    private readonly BackupResult _result;

    public BackupManifestTests()
    {
        using var store = Open(StorageEngineKind.Lmdb, Path.Combine(_dir.Path, "db"));
        for (var i = 0; i < 100; i++)
            store.Put($"docs/{i}", Json($$"""{"n":{{i}}}"""), mode: CommitMode.Lazy);
        _backup = Path.Combine(_dir.Path, "backup");
        _result = store.Backup(_backup);
        Directory.CreateDirectory(Path.Combine(_backup, "indexes", "Tags"));
        File.WriteAllText(Path.Combine(_backup, "indexes", "Tags", "segments_1"), "an index file");
    }

    public void Dispose() => _dir.Dispose();

    private string DataFile => Path.Combine(_backup, "lmdb", "data.mdb");

    [Fact]
    public void A_written_manifest_lists_every_file_and_verifies()
    {
        var written = BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);

        var verified = BackupManifest.Verify(_backup);
        Assert.Equal(["indexes/Tags/segments_1", "lmdb/data.mdb"], verified.Files.Select(f => f.Path));
        Assert.Equal(new FileInfo(DataFile).Length, verified.Files[1].Bytes);
        Assert.Equal(written.Files, verified.Files);
        Assert.Equal((100L, 100L, Taken), (verified.LastEtag, verified.Documents, verified.Created));
        Assert.Equal(BackupManifest.CurrentFormat, verified.Format);
        Assert.False(string.IsNullOrEmpty(verified.Version));
    }

    [Fact]
    public void A_changed_byte_is_refused_naming_the_file()
    {
        BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);
        var bytes = File.ReadAllBytes(DataFile);
        bytes[bytes.Length / 2] ^= 0x01;
        File.WriteAllBytes(DataFile, bytes);

        var ex = Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup));
        Assert.Contains("is damaged: the SHA-256 of 'lmdb/data.mdb'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_truncated_file_is_refused_with_its_size()
    {
        BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);
        using (var stream = new FileStream(DataFile, FileMode.Open))
            stream.SetLength(stream.Length - 4096);

        var ex = Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup));
        Assert.Contains("'lmdb/data.mdb' has", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_file_an_extra_file_and_a_missing_manifest_are_refused()
    {
        Assert.Contains("has no manifest.json", Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup)).Message, StringComparison.Ordinal);

        BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);
        File.WriteAllText(Path.Combine(_backup, "stray.txt"), "not part of the backup");
        Assert.Contains("'stray.txt', which its manifest does not list", Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup)).Message, StringComparison.Ordinal);

        File.Delete(Path.Combine(_backup, "stray.txt"));
        File.Delete(Path.Combine(_backup, "indexes", "Tags", "segments_1"));
        Assert.Contains("is partial: 'indexes/Tags/segments_1' is missing", Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup)).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"format\":1", "is damaged")]
    [InlineData("{\"format\":1}", "is damaged")]
    [InlineData("{\"format\":99,\"files\":[]}", "from a newer RavenLite")]
    [InlineData("{\"format\":1,\"version\":\"x\",\"created\":\"2026-11-24T00:00:00Z\",\"lastEtag\":1,\"documents\":1,\"files\":[{\"path\":\"../outside\",\"bytes\":1,\"sha256\":\"00\"}]}", "outside the backup")]
    public void A_manifest_that_cannot_be_trusted_is_refused(string manifest, string reason)
    {
        File.WriteAllText(Path.Combine(_backup, BackupManifest.FileName), manifest);
        var ex = Assert.Throws<InvalidDataException>(() => BackupManifest.Verify(_backup));
        Assert.Contains(reason, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Restore_copies_a_verified_backup_that_opens_with_every_document()
    {
        BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);
        var target = Path.Combine(_dir.Path, "restored");

        var manifest = BackupManifest.Restore(_backup, target);

        Assert.Equal(_result.LastEtag, manifest.LastEtag);
        Assert.Equal("an index file", File.ReadAllText(Path.Combine(target, "indexes", "Tags", "segments_1")));
        Assert.False(File.Exists(Path.Combine(target, BackupManifest.FileName)));
        using var store = Open(StorageEngineKind.Lmdb, target);
        Assert.Equal((100L, 100L), (store.GetCounts().Documents, store.GetCounts().LastEtag));
        for (var i = 0; i < 100; i++)
            Assert.Equal($$"""{"n":{{i}}}""", Encoding.UTF8.GetString(store.Get($"docs/{i}")!.DataJson.Span));
    }

    [Fact]
    public void Restore_of_a_damaged_backup_or_into_a_folder_in_use_writes_nothing()
    {
        BackupManifest.Write(_backup, _result.LastEtag, _result.Documents, Taken);
        var used = Directory.CreateDirectory(Path.Combine(_dir.Path, "used")).FullName;
        File.WriteAllText(Path.Combine(used, "keep"), "mine");
        Assert.Throws<ArgumentException>(() => BackupManifest.Restore(_backup, used));
        Assert.Equal(["keep"], Directory.GetFileSystemEntries(used).Select(Path.GetFileName));

        File.AppendAllText(Path.Combine(_backup, "indexes", "Tags", "segments_1"), "!");
        var target = Path.Combine(_dir.Path, "restored");
        Assert.Throws<InvalidDataException>(() => BackupManifest.Restore(_backup, target));
        Assert.False(Directory.Exists(target));
    }
}
