using System.Text.RegularExpressions;
using RavenLite.Server.Tests.Infrastructure;
using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

/// <summary>Issue 20: <c>ravenlite backup</c>, <c>restore</c> and <c>compact</c>.</summary>
public sealed partial class MaintenanceCommandTests : IDisposable
{
    private readonly List<string> _paths = [];

    public void Dispose() => _paths.ForEach(Delete);

    private string Track(string path)
    {
        _paths.Add(path);
        return path;
    }

    [Fact]
    public async Task Backup_of_a_folder_then_restore_gives_the_same_documents_and_says_what_it_did()
    {
        var (source, backup, target) = (Track(NewFolder()), Track(NewFolder()), Track(NewFolder()));
        List<(string, string, string)> expected;
        using (var database = Open(source))
        {
            Fill(database, 3000);
            expected = Snapshot(database);
        }

        var backedUp = await RunAsync("backup", "--data-dir", source, backup);
        var restored = await RunAsync("restore", backup, "--data-dir", target);

        Assert.True(backedUp.ExitCode == 0, backedUp.Error);
        Assert.Contains($"Backed up {expected.Count:N0} documents", backedUp.Output, StringComparison.Ordinal);
        Assert.Contains("documents", backedUp.Error, StringComparison.Ordinal);
        Assert.Contains("indexes", backedUp.Error, StringComparison.Ordinal);
        Assert.True(restored.ExitCode == 0, restored.Error);
        Assert.Contains($"Restored {expected.Count:N0} documents", restored.Output, StringComparison.Ordinal);
        using var database2 = Open(target);
        Assert.Equal(expected, Snapshot(database2));
    }

    [Fact]
    public async Task Restore_of_a_partial_backup_is_refused_with_a_clear_message_and_writes_nothing()
    {
        var (source, backup, target) = (Track(NewFolder()), Track(NewFolder()), Track(NewFolder()));
        using (var database = Open(source))
            Fill(database, 500);
        Assert.Equal(0, (await RunAsync("backup", "--data-dir", source, backup)).ExitCode);
        File.Delete(Path.Combine(backup, "lmdb", "data.mdb"));

        var restored = await RunAsync("restore", backup, "--data-dir", target);

        Assert.Equal(1, restored.ExitCode);
        Assert.Contains("is partial: 'lmdb/data.mdb' is missing", restored.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(target) && Directory.EnumerateFileSystemEntries(target).Any());
    }

    [Fact]
    public async Task Restore_into_a_folder_that_is_not_empty_is_refused()
    {
        var (source, backup) = (Track(NewFolder()), Track(NewFolder()));
        using (var database = Open(source))
            Fill(database, 100);
        Assert.Equal(0, (await RunAsync("backup", "--data-dir", source, backup)).ExitCode);

        var restored = await RunAsync("restore", backup, "--data-dir", source);

        Assert.Equal(1, restored.ExitCode);
        Assert.Contains("is not empty", restored.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compact_after_large_deletes_prints_the_size_before_and_after_and_keeps_every_document()
    {
        var source = Track(NewFolder());
        List<(string, string, string)> expected;
        using (var database = Open(source))
        {
            Fill(database, 20_000);
            database.Batch([.. Enumerable.Range(0, 20_000).Where(i => i % 10 != 1).Select(i => Storage.Documents.BatchCommand.Delete($"carts/{i}"))]);
            expected = Snapshot(database);
        }

        var compacted = await RunAsync("compact", "--data-dir", source);

        Assert.True(compacted.ExitCode == 0, compacted.Error);
        var sizes = SizesLine().Match(compacted.Output);
        Assert.True(sizes.Success, compacted.Output);
        Assert.True(Bytes(sizes.Groups[2]) < Bytes(sizes.Groups[1]) / 2, compacted.Output);
        using var database2 = Open(source);
        Assert.Equal(expected, Snapshot(database2));
    }

    [Fact]
    public async Task Backup_through_a_server_is_written_by_the_server_and_followed_to_its_end()
    {
        var (backups, target) = (Track(NewFolder()), Track(NewFolder()));
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--backup-dir", backups]);
        for (var i = 0; i < 50; i++)
            (await server.PutAsync($"notes/{i}", $$"""{"n":{{i}}}""", "Note")).EnsureSuccessStatusCode();

        var backedUp = await RunAsync("backup", "--url", server.Address.ToString(), "nightly-1");
        var restored = await RunAsync("restore", Path.Combine(backups, "nightly-1"), "--data-dir", target);

        Assert.True(backedUp.ExitCode == 0, backedUp.Error);
        Assert.Contains("Backed up 50 documents up to etag 50 into nightly-1 in the server's backup directory", backedUp.Output, StringComparison.Ordinal);
        Assert.True(restored.ExitCode == 0, restored.Error);
        using var database = Open(target);
        Assert.Equal(50, database.GetStatistics().Documents);
    }

    [Fact]
    public async Task Backup_into_a_folder_that_is_not_empty_is_refused_by_the_server_with_its_reason()
    {
        var backups = Track(NewFolder());
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--backup-dir", backups]);
        Directory.CreateDirectory(Path.Combine(backups, "taken"));
        File.WriteAllText(Path.Combine(backups, "taken", "keep.txt"), "mine");

        var backedUp = await RunAsync("backup", "--url", server.Address.ToString(), "taken");

        Assert.Equal(1, backedUp.ExitCode);
        Assert.Contains("answered 400", backedUp.Error, StringComparison.Ordinal);
        Assert.Contains("The backup folder 'taken' is not empty", backedUp.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(backups, backedUp.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Backup_through_a_server_into_a_path_outside_its_backup_directory_is_refused()
    {
        var (backups, elsewhere) = (Track(NewFolder()), Track(NewFolder()));
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--backup-dir", backups]);

        var absolute = await RunAsync("backup", "--url", server.Address.ToString(), elsewhere);
        var climbing = await RunAsync("backup", "--url", server.Address.ToString(), "../../../../elsewhere");

        Assert.Equal(1, absolute.ExitCode);
        Assert.Contains("must be a folder name inside the backup directory", absolute.Error, StringComparison.Ordinal);
        Assert.Equal(1, climbing.ExitCode);
        Assert.Contains("answered 400", climbing.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(elsewhere));
    }

    private static long Bytes(Group digits) =>
        long.Parse(digits.Value, System.Globalization.NumberStyles.AllowThousands, System.Globalization.CultureInfo.InvariantCulture);

    [GeneratedRegex(@"\(([\d,]+) -> ([\d,]+) bytes\)")]
    private static partial Regex SizesLine();
}
