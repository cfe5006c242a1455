using System.Net;
using System.Text.Json;
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
        Assert.True(File.Exists(Path.Combine(status.GetProperty("Folder").GetString()!, "manifest.json")));
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

    private async Task<JsonElement> FollowAsync(string location)
    {
        for (var i = 0; i < 600; i++)
        {
            var status = JsonDocument.Parse(await _server.Client.GetStringAsync(location)).RootElement.Clone();
            if (status.GetProperty("State").GetString() != "Running")
                return status;
            await Task.Delay(50);
        }
        throw new TimeoutException("The backup did not finish in 30 s.");
    }
}
