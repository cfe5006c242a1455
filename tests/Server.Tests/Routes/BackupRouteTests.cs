using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Issue 20: <c>POST /admin/backup</c> answers at once and runs the backup off the request thread.</summary>
public sealed class BackupRouteTests : IAsyncLifetime
{
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        for (var i = 0; i < 20; i++)
            (await _server.PutAsync($"notes/{i}", $$"""{"n":{{i}}}""", "Note")).EnsureSuccessStatusCode();
    }

    public async Task DisposeAsync()
    {
        var backups = Path.TrimEndingDirectorySeparator(_server.DataDirectory) + "-backups";
        await _server.DisposeAsync();
        if (Directory.Exists(backups))
            Directory.Delete(backups, recursive: true);
    }

    [Fact]
    public async Task Post_answers_202_with_where_to_follow_it_and_the_backup_succeeds_with_its_etag()
    {
        using var started = await _server.Client.PostAsync("/admin/backup?folder=first", null);

        Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        Assert.Equal("/admin/backups/first", started.Headers.Location?.OriginalString);
        var status = await FollowAsync(started.Headers.Location!.OriginalString);
        Assert.Equal("Succeeded", status.GetProperty("State").GetString());
        Assert.Equal(20, status.GetProperty("LastEtag").GetInt64());
        Assert.Equal(20, status.GetProperty("Documents").GetInt64());
        Assert.Equal("first", status.GetProperty("Folder").GetString());
        Assert.True(File.Exists(Path.Combine(Backups, "first", "manifest.json")));
    }

    private string Backups => Path.TrimEndingDirectorySeparator(_server.DataDirectory) + "-backups";

    [Theory]
    [InlineData("../../../../elsewhere")]
    [InlineData("..")]
    [InlineData("nightly/../../elsewhere")]
    [InlineData("./nightly")]
    [InlineData("nightly//1")]
    [InlineData("c:elsewhere")]
    [InlineData(@"nightly\..\..\elsewhere")]
    public async Task A_folder_that_is_not_a_name_inside_the_backup_directory_is_a_400(string folder)
    {
        using var refused = await _server.Client.PostAsync("/admin/backup?folder=" + Uri.EscapeDataString(folder), null);

        var detail = await JsonAssert.ErrorAsync(refused, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Contains("must be a folder name inside the backup directory", detail, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(Path.GetDirectoryName(Backups)!, "elsewhere")));
    }

    [Fact]
    public async Task An_absolute_folder_is_a_400_and_nothing_is_written_there()
    {
        var elsewhere = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N"));

        using var refused = await _server.Client.PostAsync("/admin/backup?folder=" + Uri.EscapeDataString(elsewhere), null);

        await JsonAssert.ErrorAsync(refused, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.False(Directory.Exists(elsewhere));
    }

    [Fact]
    public async Task A_symbolic_link_inside_the_backup_directory_leading_out_is_a_400()
    {
        var elsewhere = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(elsewhere);
        Directory.CreateDirectory(Backups);
        Directory.CreateSymbolicLink(Path.Combine(Backups, "link"), elsewhere);
        try
        {
            using var through = await _server.Client.PostAsync("/admin/backup?folder=link/nightly", null);
            using var into = await _server.Client.PostAsync("/admin/backup?folder=link", null);

            Assert.Contains("'link' is a symbolic link", await JsonAssert.ErrorAsync(through, HttpStatusCode.BadRequest, ErrorCodes.BadRequest), StringComparison.Ordinal);
            await JsonAssert.ErrorAsync(into, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
            Assert.Empty(Directory.EnumerateFileSystemEntries(elsewhere));
        }
        finally
        {
            Directory.Delete(elsewhere, recursive: true);
        }
    }

    [Fact]
    public async Task A_nested_name_is_a_folder_inside_the_backup_directory_and_statuses_name_it_relative_to_it()
    {
        using var started = await _server.Client.PostAsync("/admin/backup?folder=" + Uri.EscapeDataString("2026/nightly-1"), null);
        var status = await FollowAsync(started.Headers.Location!.OriginalString);
        var list = await _server.Client.GetStringAsync("/admin/backups");
        using var again = await _server.Client.PostAsync("/admin/backup?folder=" + Uri.EscapeDataString("2026/nightly-1"), null);

        Assert.Equal("Succeeded", status.GetProperty("State").GetString());
        Assert.Equal("2026/nightly-1", status.GetProperty("Folder").GetString());
        Assert.True(File.Exists(Path.Combine(Backups, "2026", "nightly-1", "manifest.json")));
        Assert.DoesNotContain(Backups, list, StringComparison.Ordinal);
        Assert.DoesNotContain(_server.DataDirectory, list, StringComparison.Ordinal);
        var detail = await JsonAssert.ErrorAsync(again, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Equal("The backup folder '2026/nightly-1' is not empty: back up into a new or empty folder.", detail);
    }

    [Fact]
    public void Errors_quoting_server_paths_name_them_relative_to_the_backup_directory()
    {
        var options = _server.App.Services.GetRequiredService<RavenLiteServerOptions>();
        var message = $"Could not write '{Path.Combine(options.BackupDirectory, "nightly", "lmdb")}' while reading '{options.Database.DataDirectory}'.";

        var shown = RavenLite.Server.Backups.BackupFolder.WithoutServerPaths(message, options);

        Assert.Equal($"Could not write '{Path.Combine("nightly", "lmdb")}' while reading '<data-dir>'.", shown);
    }

    [Fact]
    public async Task The_list_shows_backups_run_and_found_on_disk_and_an_unknown_one_is_404()
    {
        using (var started = await _server.Client.PostAsync("/admin/backup", null))
            await FollowAsync(started.Headers.Location!.OriginalString);

        var list = JsonDocument.Parse(await _server.Client.GetStringAsync("/admin/backups")).RootElement;
        using var missing = await _server.Client.GetAsync("/admin/backups/nope");

        var backup = Assert.Single(list.EnumerateArray());
        Assert.StartsWith("backup-", backup.GetProperty("Id").GetString(), StringComparison.Ordinal);
        Assert.Equal("Succeeded", backup.GetProperty("State").GetString());
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task A_backup_is_named_and_timed_by_the_server_clock()
    {
        var clock = new FakeTimeProvider(new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero));
        await using var server = await TestServer.StartAsync(configure: builder => builder.Services.AddSingleton<TimeProvider>(clock));
        var backups = Path.TrimEndingDirectorySeparator(server.DataDirectory) + "-backups";
        try
        {
            using var started = await server.Client.PostAsync("/admin/backup", null);
            clock.Advance(TimeSpan.FromMinutes(1));
            var status = await FollowAsync(server, started.Headers.Location!.OriginalString);

            Assert.Equal("backup-20260102T030405Z", status.GetProperty("Id").GetString());
            Assert.Equal(new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero), status.GetProperty("StartedAt").GetDateTimeOffset());
            // The backup may finish before or after the clock moves on: either way its end is a time of the server's clock.
            Assert.Contains(status.GetProperty("FinishedAt").GetDateTimeOffset(),
                new[] { new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero), new DateTimeOffset(2026, 1, 2, 3, 5, 5, TimeSpan.Zero) });
        }
        finally
        {
            if (Directory.Exists(backups))
                Directory.Delete(backups, recursive: true);
        }
    }

    private Task<JsonElement> FollowAsync(string location) => FollowAsync(_server, location);

    private static async Task<JsonElement> FollowAsync(TestServer server, string location)
    {
        for (var i = 0; i < 600; i++)
        {
            var status = JsonDocument.Parse(await server.Client.GetStringAsync(location)).RootElement.Clone();
            if (status.GetProperty("State").GetString() != "Running")
                return status;
            await Task.Delay(50); // a poll's pause while the backup's thread works; the outcome is its status
        }
        throw new TimeoutException("The backup did not finish in 30 s.");
    }
}
