using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>
/// Query responses say where their time went: a <c>Timings</c> member and a parseable <c>Server-Timing</c> header.
/// Durations are only compared with each other, never with a figure.
/// </summary>
public sealed class QueryTimingsRouteTests(SeedCartServerFixture fixture) : IClassFixture<SeedCartServerFixture>
{
    private const string Index = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&waitForNonStaleResults=true";
    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task A_query_response_has_timings_whose_parts_fit_in_the_total()
    {
        var response = await _server.Client.GetAsync(Index + "&pageSize=700");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
        var timings = body.GetProperty("Timings");
        var total = timings.GetProperty("TotalMicroseconds").GetDouble();

        Assert.False(timings.GetProperty("Cached").GetBoolean());
        foreach (var part in new[] { "WaitMicroseconds", "ParseMicroseconds", "SearchMicroseconds", "LoadMicroseconds", "StorageMicroseconds", "QueryMicroseconds", "WriteMicroseconds" })
            Assert.InRange(timings.GetProperty(part).GetDouble(), 0, total);
        Assert.InRange(timings.GetProperty("QueryMicroseconds").GetDouble() + timings.GetProperty("WriteMicroseconds").GetDouble(), 0, total);
        Assert.Equal(body.GetProperty("Results").GetArrayLength() + body.GetProperty("SkippedResults").GetInt32(),
            timings.GetProperty("CachedDocuments").GetInt32() + timings.GetProperty("StorageDocuments").GetInt32());
    }

    [Fact]
    public async Task The_Server_Timing_header_is_parseable_and_holds_every_part()
    {
        var response = await _server.Client.GetAsync(Index + "&pageSize=701");
        await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        var metrics = ServerTimingHeader.Parse(response);

        Assert.Equal(["cache", "wait", "parse", "search", "load", "storage", "query", "write", "total"], metrics.Select(m => m.Name));
        var total = metrics.Single(m => m.Name == "total").Duration!.Value;
        Assert.All(metrics.Where(m => m.Name != "cache"), m => Assert.InRange(m.Duration!.Value, 0, total));
        Assert.Matches("^[0-9]+ cached / [0-9]+ from storage$", metrics.Single(m => m.Name == "load").Description);
    }

    [Fact]
    public async Task A_warm_page_of_a_caught_up_index_comes_from_the_document_cache()
    {
        await _server.Client.GetAsync(Index + "&pageSize=1000");

        // Another page size: not the kept response, so the query runs, over documents the first one cached.
        var body = await JsonAssert.ReadAsync(await _server.Client.GetAsync(Index + "&pageSize=999"), HttpStatusCode.OK);

        var timings = body.GetProperty("Timings");
        Assert.Equal(999, timings.GetProperty("CachedDocuments").GetInt32());
        Assert.Equal(0, timings.GetProperty("StorageDocuments").GetInt32());
    }

    [Fact]
    public async Task A_cached_response_says_so_in_both_places()
    {
        await _server.Client.GetAsync(Index + "&pageSize=702");
        var response = await _server.Client.GetAsync(Index + "&pageSize=702");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        var metrics = ServerTimingHeader.Parse(response);
        Assert.Equal(["cache", "total"], metrics.Select(m => m.Name));
        Assert.Equal("hit", metrics[0].Description);
        Assert.True(body.GetProperty("Timings").GetProperty("Cached").GetBoolean());
        Assert.Equal(702, body.GetProperty("Results").GetArrayLength());
    }
}
