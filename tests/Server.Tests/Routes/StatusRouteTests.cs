using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class StatusRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task Stats_report_maintained_counts_cache_counters_and_index_statistics()
    {
        await _server.PutAsync("stats/1", "{}", "Order");
        await _server.PutAsync("stats/2", "{}", "Order");
        await _server.PutAsync("stats/3", "{}");
        await _server.Client.GetAsync("/docs/stats/1");

        var stats = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/stats"), HttpStatusCode.OK);
        Assert.Equal(3, stats.GetProperty("Documents").GetInt64());
        Assert.Equal(3, stats.GetProperty("LastEtag").GetInt64());
        Assert.Equal(2, stats.GetProperty("ByEntityName").GetProperty("Order").GetInt64());
        Assert.True(stats.TryGetProperty("Cache", out _), "the database statistics carry cache counters");
        Assert.Equal(JsonValueKind.Array, stats.GetProperty("StaleIndexes").ValueKind);
        var index = Assert.Single(stats.GetProperty("Indexes").EnumerateArray());
        Assert.Equal("Raven/DocumentsByEntityName", index.GetProperty("Name").GetString());
        Assert.True(index.TryGetProperty("IsStale", out _));
        Assert.True(index.TryGetProperty("LastIndexedEtag", out _));
        Assert.False(stats.TryGetProperty("IndexingNote", out _));
    }

    [Fact]
    public async Task Health_returns_200_while_the_database_is_open()
    {
        var health = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/health"), HttpStatusCode.OK);
        Assert.Equal("Ok", health.GetProperty("Status").GetString());
    }

    [Fact]
    public async Task Unknown_routes_and_methods_get_json_errors()
    {
        await JsonAssert.ErrorAsync(await _server.Client.GetAsync("/no/such/route"), HttpStatusCode.NotFound);
        await JsonAssert.ErrorAsync(await _server.Client.PostAsync("/indexes/Raven/DocumentsByEntityName", null), HttpStatusCode.MethodNotAllowed);
        await JsonAssert.ErrorAsync(await _server.Client.PostAsync("/stats", null), HttpStatusCode.MethodNotAllowed);
    }
}
