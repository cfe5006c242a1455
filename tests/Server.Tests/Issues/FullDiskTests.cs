using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 20: a full disk says so. Writes get 507 and store nothing; an index that cannot write shows its failure in the
/// log (rate-limited), in its statistics, in /stats, in a waited query's timeout and in /health/ready; all of it clears
/// once space is freed, without a restart.
/// </summary>
public sealed class FullDiskTests : IDisposable
{
    private readonly CapturingLoggerProvider _logs = new();
    private readonly string _dataDirectory = TestServer.NewDataDirectory();

    public void Dispose()
    {
        if (Directory.Exists(_dataDirectory))
            Directory.Delete(_dataDirectory, recursive: true);
    }

    [SmallDiskFact]
    public async Task A_write_on_a_full_disk_gets_507_saying_so_stores_nothing_and_is_accepted_once_space_is_freed()
    {
        using var disk = new SmallDisk(8);
        await using var server = await TestServer.StartAsync(dataDirectory: Path.Combine(disk.Path, "data"));
        var filler = Path.Combine(disk.Path, "filler");
        var pad = new string('x', 16 * 1024);
        HttpResponseMessage? refused = null;
        var written = 0;
        File.WriteAllBytes(filler, new byte[4 * 1024 * 1024]);
        for (; written < 2000 && refused is null; written++)
        {
            var response = await server.PutAsync($"notes/{written}", $$"""{"pad":"{{pad}}"}""", "Note");
            if (response.StatusCode != HttpStatusCode.Created)
                refused = response;
        }

        Assert.NotNull(refused);
        var failed = written - 1;
        var detail = await JsonAssert.ErrorAsync(refused, HttpStatusCode.InsufficientStorage, ErrorCodes.StorageFull);
        Assert.Contains("is full", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await server.Client.GetAsync($"/docs/notes/{failed}")).StatusCode);
        var stats = await JsonAssert.ReadAsync(await server.Client.GetAsync("/stats"), HttpStatusCode.OK);
        Assert.Equal(failed, stats.GetProperty("Documents").GetInt64());

        File.Delete(filler);
        var accepted = await server.PutAsync($"notes/{failed}", """{"pad":"again"}""", "Note");

        Assert.Equal(HttpStatusCode.Created, accepted.StatusCode);
    }

    [SmallDiskFact]
    public async Task Indexing_on_a_full_disk_is_logged_rate_limited_shown_in_stats_and_readiness_and_clears_once_space_is_freed()
    {
        // The indexes get a small disk of their own, so documents are still written while the indexes cannot be.
        using var disk = new SmallDisk(8);
        Directory.CreateDirectory(_dataDirectory);
        Directory.CreateSymbolicLink(Path.Combine(_dataDirectory, "Indexes"), disk.Path);
        await using var server = await TestServer.StartAsync(dataDirectory: _dataDirectory,
            configure: b => b.Services.AddSingleton<ILoggerProvider>(_logs));
        for (var i = 0; i < 10; i++)
            await server.PutAsync($"notes/{i}", $$"""{"n":{{i}}}""", "Note");
        Assert.Equal(10, await CountNotesAsync(server));
        // A failed index write rolls back and frees what it wrote: the disk is topped up again, so it stays full.
        using var keepFull = new CancellationTokenSource();
        var filler = Path.Combine(disk.Path, "filler");
        var filling = Task.Run(() => KeepFull(filler, keepFull.Token));

        for (var i = 10; i < 60; i++)
            Assert.Equal(HttpStatusCode.Created, (await server.PutAsync($"notes/{i}", $$"""{"n":{{i}},"text":"{{new string('y', 2000)}}"}""", "Note")).StatusCode);
        await WaitForReadinessAsync(server, HttpStatusCode.ServiceUnavailable);
        await WaitForRetryAsync(server);

        var notReady = await JsonAssert.ErrorAsync(await server.Client.GetAsync("/health/ready"), HttpStatusCode.ServiceUnavailable, ErrorCodes.IndexFailing);
        var stats = await JsonAssert.ReadAsync(await server.Client.GetAsync("/stats"), HttpStatusCode.OK);
        Assert.Equal(IndexName, Assert.Single(stats.GetProperty("FailingIndexes").EnumerateArray()).GetString());
        var lastError = stats.GetProperty("LastIndexingError");
        var etag = lastError.GetProperty("Etag").GetInt64();
        // Near-real-time indexing rolls a failed index back to its last commit, which may be before the 10th note.
        Assert.InRange(etag, 1, 11);
        var failure = $"Indexing from etag {etag} failed and is retried: ";
        Assert.Contains($"index '{IndexName}' cannot make progress since ", notReady, StringComparison.Ordinal);
        Assert.Contains(failure, notReady, StringComparison.Ordinal);
        Assert.StartsWith(failure, lastError.GetProperty("Message").GetString(), StringComparison.Ordinal);
        Assert.True(lastError.GetProperty("At").GetDateTimeOffset() > DateTimeOffset.UtcNow.AddMinutes(-1));
        var index = stats.GetProperty("Indexes").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == IndexName);
        Assert.True(index.GetProperty("IsStale").GetBoolean());
        Assert.NotEqual(JsonValueKind.Null, index.GetProperty("FailingSince").ValueKind);
        Assert.True(index.GetProperty("ErrorCount").GetInt64() >= 1);
        var timedOut = await server.Client.GetAsync($"/indexes/{IndexName}?query=Tag:Note&pageSize=0&waitForNonStaleResults=true&timeout=0.5");
        var timeout = await JsonAssert.ErrorAsync(timedOut, HttpStatusCode.GatewayTimeout, ErrorCodes.IndexStale);
        Assert.Contains("It cannot make progress: " + failure, timeout, StringComparison.Ordinal);
        var failures = FailureLines();
        Assert.True(failures.Count is 1, string.Join(Environment.NewLine, failures));
        Assert.Contains($"Index '{IndexName}': indexing from etag {etag} failed (attempt 1", failures[0], StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);

        await keepFull.CancelAsync();
        await filling;
        File.Delete(filler);
        var ready = await WaitForReadinessAsync(server, HttpStatusCode.OK);

        Assert.Equal("Ready", ready.GetProperty("Status").GetString());
        Assert.Equal(60, await CountNotesAsync(server));
        Assert.Contains(_logs.Entries, e => e.Message.StartsWith($"Index '{IndexName}' is indexing again after", StringComparison.Ordinal));
        stats = await JsonAssert.ReadAsync(await server.Client.GetAsync("/stats"), HttpStatusCode.OK);
        Assert.Empty(stats.GetProperty("FailingIndexes").EnumerateArray());
        Assert.Equal(etag, stats.GetProperty("LastIndexingError").GetProperty("Etag").GetInt64());
    }

    private const string IndexName = "Raven/DocumentsByEntityName";

    private List<string> FailureLines() =>
        [.. _logs.Entries.Where(e => e.Category == "RavenLite.Database" && e.Message.Contains("failed (attempt", StringComparison.Ordinal))
            .Select(e => e.Message)];

    private static async Task<int> CountNotesAsync(TestServer server)
    {
        var page = await JsonAssert.ReadAsync(await server.Client.GetAsync(
            $"/indexes/{IndexName}?query=Tag:Note&pageSize=0&waitForNonStaleResults=true&timeout=20"), HttpStatusCode.OK);
        return page.GetProperty("TotalResults").GetInt32();
    }

    /// <summary>Waits until the failing index has been tried again: its last error is newer than the one seen first.</summary>
    private static async Task WaitForRetryAsync(TestServer server)
    {
        async Task<DateTimeOffset> LastErrorAtAsync() => (await JsonAssert.ReadAsync(await server.Client.GetAsync("/stats"), HttpStatusCode.OK))
            .GetProperty("LastIndexingError").GetProperty("At").GetDateTimeOffset();
        var first = await LastErrorAtAsync();
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (await LastErrorAtAsync() == first)
        {
            Assert.True(DateTime.UtcNow < deadline, "the failing index was not retried within 30 s");
            await Task.Delay(50);
        }
    }

    private static async Task<JsonElement> WaitForReadinessAsync(TestServer server, HttpStatusCode wanted)
    {
        for (var i = 0; ; i++)
        {
            using var response = await server.Client.GetAsync("/health/ready");
            if (response.StatusCode == wanted || i == 200)
                return await JsonAssert.ReadAsync(response, wanted);
            await Task.Delay(50);
        }
    }

    /// <summary>Grows the file at <paramref name="path"/> until the disk is full, and again whenever space is freed, until cancelled.</summary>
    private static async Task KeepFull(string path, CancellationToken stop)
    {
        await using var stream = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
        var block = new byte[4096];
        while (!stop.IsCancellationRequested)
        {
            try
            {
                while (true)
                    stream.Write(block);
            }
            catch (IOException)
            {
                // full again
            }
            await Task.Delay(5, CancellationToken.None);
        }
    }
}
