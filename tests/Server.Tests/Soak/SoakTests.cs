using System.Diagnostics;
using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Server.Tests.Soak;

/// <summary>
/// Issue 11's load promise: 8 writer and 8 reader connections against the real server on 127.0.0.1 (random puts,
/// deletes, bulk batches, gets, multi-gets and tag queries), then everything checked against an in-memory model:
/// no acknowledged write lost, no phantom document, no 5xx, query totals equal to the model once not stale.
/// Requests per second and the 99th percentile latency are written to the test output: measured, never asserted.
/// </summary>
public sealed class SoakTests(ITestOutputHelper output)
{
    private const int Writers = 8;
    private const int Readers = 8;

    [Fact]
    public Task Ten_seconds_of_mixed_load_lose_nothing_invent_nothing_and_never_answer_5xx() => RunAsync(TimeSpan.FromSeconds(10));

    [Fact]
    [Trait("Category", "Slow")]
    public Task A_minute_of_mixed_load_loses_nothing_invents_nothing_and_never_answers_5xx() => RunAsync(TimeSpan.FromSeconds(60));

    private async Task RunAsync(TimeSpan duration)
    {
        await using var server = await TestServer.StartAsync();
        var model = new SoakModel(Writers);
        var statistics = new SoakStatistics();
        var clients = new SoakClients(server.Address, model, statistics);

        var clock = Stopwatch.StartNew();
        var until = DateTime.UtcNow + duration;
        await Task.WhenAll(
            Enumerable.Range(0, Writers).Select(w => Task.Run(() => clients.WriteAsync(w, until)))
                .Concat(Enumerable.Range(0, Readers).Select(r => Task.Run(() => clients.ReadAsync(r, Writers, until)))));
        var elapsed = clock.Elapsed;

        output.WriteLine($"{statistics.Requests} requests in {elapsed.TotalSeconds:F1} s: {statistics.Requests / elapsed.TotalSeconds:F0} requests/s, " +
            $"p50 {statistics.Percentile(0.50):F2} ms, p99 {statistics.Percentile(0.99):F2} ms, max {statistics.Percentile(1):F1} ms; " +
            $"{model.Present} documents in the model");
        Assert.Equal(0, statistics.ServerErrors);
        Assert.Empty(statistics.Failures);
        Assert.True(statistics.Requests > 100, $"only {statistics.Requests} requests ran");

        await AssertStorageMatchesAsync(server.Client, model);
        await AssertQueriesMatchAsync(server.Client, model);
    }

    private static async Task AssertStorageMatchesAsync(HttpClient client, SoakModel model)
    {
        foreach (var (key, expected) in model.All())
        {
            var response = await client.GetAsync("/docs/" + key);
            if (expected is not { } version)
            {
                Assert.True(response.StatusCode == HttpStatusCode.NotFound, $"{key} was deleted but reads {response.StatusCode}");
                continue;
            }
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"{key} (version {version.Version}) was lost: {response.StatusCode}");
            using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            Assert.Equal(version.Version, document.RootElement.GetProperty("v").GetInt64());
            Assert.Equal(version.Tag, document.RootElement.GetProperty("tag").GetString());
            Assert.Equal(version.Tag, response.Headers.GetValues("Raven-Entity-Name").Single());
        }
        using var stats = JsonDocument.Parse(await client.GetStringAsync("/stats"));
        Assert.Equal(model.Present, stats.RootElement.GetProperty("Documents").GetInt32()); // no phantoms
    }

    private static async Task AssertQueriesMatchAsync(HttpClient client, SoakModel model)
    {
        foreach (var tag in SoakModel.Tags)
        {
            using var page = JsonDocument.Parse(await client.GetStringAsync(
                $"/indexes/Raven/DocumentsByEntityName?query=Tag:{tag}&pageSize=1024&waitForNonStaleResults=true&timeout=120"));
            Assert.False(page.RootElement.GetProperty("IsStale").GetBoolean());
            Assert.Equal(model.CountTag(tag), page.RootElement.GetProperty("TotalResults").GetInt32());
            var keys = page.RootElement.GetProperty("Results").EnumerateArray()
                .Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!).Order(StringComparer.OrdinalIgnoreCase);
            var expected = model.All().Where(e => e.Expected?.Tag == tag).Select(e => e.Key).Order(StringComparer.OrdinalIgnoreCase);
            Assert.Equal(expected, keys); // a tag's query finds exactly its documents once caught up
        }
    }
}
