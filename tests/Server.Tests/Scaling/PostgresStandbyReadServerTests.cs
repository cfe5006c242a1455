using System.Diagnostics;
using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Scaling;

/// <summary>
/// A read server: a RavenLite server over a PostgreSQL hot standby serves loads and queries, refuses writes with the
/// <c>read-only</c> problem, follows the primary's writes by polling (notifications do not reach a standby), and shows
/// its lag in <c>/stats</c>.
/// </summary>
public sealed class PostgresStandbyReadServerTests
{
    private const string CartQuery = "/indexes/Raven/DocumentsByEntityName?query=Tag:Cart&pageSize=100&waitForNonStaleResults=true";

    [PostgresPairFact]
    public async Task A_server_on_the_standby_serves_reads_refuses_writes_and_follows_the_primary()
    {
        using var pair = TestPostgresPair.Start(synchronous: false);
        await using var primary = await TestServer.StartAsync(["--engine", "postgres", "--connection-string", pair.PrimaryConnectionString]);
        for (var i = 0; i < 5; i++)
            Assert.Equal(HttpStatusCode.Created, (await primary.PutAsync($"carts/{i}", $$"""{"i":{{i}}}""", "Cart")).StatusCode);
        pair.WaitForStandbyToCatchUp(TimeSpan.FromSeconds(30));
        await using var reader = await TestServer.StartAsync(["--engine", "postgres", "--connection-string", pair.StandbyConnectionString]);

        Assert.Equal("""{"i":3}""", await reader.Client.GetStringAsync("/docs/carts/3"));
        Assert.Equal(5, TotalResults(await reader.Client.GetStringAsync(CartQuery)));

        var detail = await JsonAssert.ErrorAsync(await reader.PutAsync("carts/9", """{"i":9}""", "Cart"), HttpStatusCode.Forbidden, ErrorCodes.ReadOnly);
        Assert.Contains("standby", detail, StringComparison.Ordinal);
        await JsonAssert.ErrorAsync(await reader.Client.DeleteAsync("/docs/carts/1"), HttpStatusCode.Forbidden, ErrorCodes.ReadOnly);
        Assert.Equal("""{"i":1}""", await reader.Client.GetStringAsync("/docs/carts/1"));

        // The primary's later writes reach the reader: its poll (once a second) wakes its indexer, and a load reads
        // the standby's current row, never a cached older version.
        Assert.Equal(HttpStatusCode.Created, (await primary.PutAsync("carts/5", """{"i":5}""", "Cart")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await primary.PutAsync("carts/1", """{"i":100}""", "Cart")).StatusCode);
        // The standby replays in commit order: once the later write is served, the earlier one is there too.
        Assert.True(await Eventually(async () => await reader.Client.GetStringAsync("/docs/carts/1") == """{"i":100}"""),
            "the reader never served the primary's change");
        Assert.Equal("""{"i":5}""", await reader.Client.GetStringAsync("/docs/carts/5"));
        Assert.True(await Eventually(async () => TotalResults(await reader.Client.GetStringAsync(CartQuery)) == 6),
            "the reader's index never caught up with the primary");

        using (var stats = JsonDocument.Parse(await reader.Client.GetStringAsync("/stats")))
        {
            var replication = stats.RootElement.GetProperty("Replication");
            Assert.True(replication.GetProperty("IsStandby").GetBoolean());
            Assert.True(replication.GetProperty("LagMilliseconds").GetDouble() >= 0);
            Assert.Equal(JsonValueKind.String, replication.GetProperty("LastReplayedCommitAt").ValueKind);
            Assert.Equal(6, stats.RootElement.GetProperty("Documents").GetInt64());
        }

        // A standby that receives but does not replay (paused here; a long query or a slow disk does the same) is
        // behind, says so, and serves what it has replayed.
        pair.PauseStandbyReplay(pause: true);
        Assert.Equal(HttpStatusCode.Created, (await primary.PutAsync("carts/7", """{"i":7}""", "Cart")).StatusCode);
        pair.WaitForStandbyToFallBehind(TimeSpan.FromSeconds(30));
        using (var stats = JsonDocument.Parse(await reader.Client.GetStringAsync("/stats")))
            Assert.True(stats.RootElement.GetProperty("Replication").GetProperty("LagMilliseconds").GetDouble() > 0);
        Assert.Equal(HttpStatusCode.NotFound, (await reader.Client.GetAsync("/docs/carts/7")).StatusCode);
        pair.PauseStandbyReplay(pause: false);
        Assert.True(await Eventually(async () => (await reader.Client.GetAsync("/docs/carts/7")).StatusCode == HttpStatusCode.OK),
            "the reader never served the write replayed after the pause");
        using var primaryStats = JsonDocument.Parse(await primary.Client.GetStringAsync("/stats"));
        Assert.False(primaryStats.RootElement.GetProperty("Replication").GetProperty("IsStandby").GetBoolean());
        Assert.Equal(JsonValueKind.Null, primaryStats.RootElement.GetProperty("Replication").GetProperty("LagMilliseconds").ValueKind);

        // Promoted, the standby is writable, and so is the reader, without a restart.
        pair.KillPrimary();
        pair.Promote();
        Assert.Equal(HttpStatusCode.Created, (await reader.PutAsync("carts/8", """{"i":8}""", "Cart")).StatusCode);
        using var promoted = JsonDocument.Parse(await reader.Client.GetStringAsync("/stats"));
        Assert.False(promoted.RootElement.GetProperty("Replication").GetProperty("IsStandby").GetBoolean());
        Assert.Equal(8, TotalResults(await reader.Client.GetStringAsync(CartQuery)));
    }

    private static int TotalResults(string body)
    {
        using var result = JsonDocument.Parse(body);
        return result.RootElement.GetProperty("TotalResults").GetInt32();
    }

    private static async Task<bool> Eventually(Func<Task<bool>> condition)
    {
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(15))
        {
            if (await condition())
                return true;
            await Task.Delay(50);
        }
        return false;
    }
}
