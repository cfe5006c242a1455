using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>Issue 11: a document an index cannot index is an indexing error in /stats, and the index still catches up.</summary>
public sealed class IndexingErrorStatsTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task A_document_that_cannot_be_indexed_shows_in_stats_with_its_key_and_etag_and_the_index_is_not_stale()
    {
        await JsonAssert.ReadAsync(await _server.Client.PutAsync("/indexes/Orders/ByTotal",
            TestServer.Json("""{"Name": "Orders/ByTotal", "Fields": [{"Name": "Total", "Path": "total", "Sort": "Long"}]}""")), HttpStatusCode.Created);
        await _server.PutAsync("orders/1", """{"total": 3}""");
        var bad = await _server.PutAsync("orders/2", """{"total": "lots"}""");
        await _server.PutAsync("orders/3", """{"total": 4}""");

        var page = await JsonAssert.ReadAsync(await _server.Client.GetAsync(
            "/indexes/Orders/ByTotal?query=Total:[0%20TO%2010]&waitForNonStaleResults=true"), HttpStatusCode.OK);
        var stats = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/stats"), HttpStatusCode.OK);

        Assert.Equal(2, page.GetProperty("TotalResults").GetInt32());
        var index = stats.GetProperty("Indexes").EnumerateArray().Single(i => i.GetProperty("Name").GetString() == "Orders/ByTotal");
        Assert.False(index.GetProperty("IsStale").GetBoolean());
        Assert.Equal(1, index.GetProperty("ErrorCount").GetInt64());
        var error = index.GetProperty("LastError");
        Assert.Equal("orders/2", error.GetProperty("DocumentKey").GetString());
        Assert.Contains("'lots' is not a whole number", error.GetProperty("Message").GetString(), StringComparison.Ordinal);
        Assert.Equal(long.Parse(bad.Headers.ETag!.Tag.Trim('"'), System.Globalization.CultureInfo.InvariantCulture), error.GetProperty("Etag").GetInt64());
    }
}
