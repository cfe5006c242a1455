using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>A small maximum page size, so clamping is cheap to see.</summary>
public sealed class PagingServerFixture : ServerFixture
{
    protected override async Task<TestServer> StartAsync()
    {
        var server = await TestServer.StartAsync(["--RavenLite:DefaultPageSize=3", "--RavenLite:MaxPageSize=5"]);
        for (var i = 1; i <= 7; i++)
            Assert.Equal(HttpStatusCode.Created, (await server.PutAsync($"items/{i}", $$"""{"n":{{i}}}""", "Item")).StatusCode);
        await server.PutAsync("empty/1", "{}");
        return server;
    }
}

public sealed class DocumentListRouteTests(PagingServerFixture fixture) : IClassFixture<PagingServerFixture>
{
    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task Get_docs_returns_newest_first_with_metadata_and_totals()
    {
        var page = await JsonAssert.ReadAsync(await Client.GetAsync("/docs?start=1&pageSize=2"), HttpStatusCode.OK);
        Assert.Equal(1, page.GetProperty("Start").GetInt32());
        Assert.Equal(2, page.GetProperty("PageSize").GetInt32());
        Assert.Equal(8, page.GetProperty("TotalResults").GetInt64());
        var results = page.GetProperty("Results").EnumerateArray().ToList();
        Assert.Equal([7, 6], results.Select(r => r.GetProperty("n").GetInt32()));
        var metadata = results[0].GetProperty("@metadata");
        Assert.Equal("items/7", metadata.GetProperty("@id").GetString());
        Assert.Equal("Item", metadata.GetProperty("Raven-Entity-Name").GetString());
        Assert.True(long.Parse(metadata.GetProperty("@etag").GetString()!, System.Globalization.CultureInfo.InvariantCulture) > 0);
        Assert.True(DateTimeOffset.TryParse(metadata.GetProperty("Last-Modified").GetString(), System.Globalization.CultureInfo.InvariantCulture, out _));
    }

    [Fact]
    public async Task An_empty_document_gets_metadata_without_a_stray_comma()
    {
        var page = await JsonAssert.ReadAsync(await Client.GetAsync("/docs?pageSize=1"), HttpStatusCode.OK);
        var only = Assert.Single(page.GetProperty("Results").EnumerateArray());
        Assert.Equal("@metadata", Assert.Single(only.EnumerateObject()).Name);
        Assert.Equal("empty/1", only.GetProperty("@metadata").GetProperty("@id").GetString());
    }

    [Fact]
    public async Task Default_page_size_applies_when_none_is_given()
    {
        var page = await JsonAssert.ReadAsync(await Client.GetAsync("/docs"), HttpStatusCode.OK);
        Assert.Equal(3, page.GetProperty("PageSize").GetInt32());
        Assert.Equal(3, page.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task Page_size_above_the_maximum_is_clamped_and_says_so()
    {
        var page = await JsonAssert.ReadAsync(await Client.GetAsync("/docs?pageSize=100"), HttpStatusCode.OK);
        Assert.Equal(5, page.GetProperty("PageSize").GetInt32());
        Assert.Equal(100, page.GetProperty("RequestedPageSize").GetInt32());
        Assert.Equal(5, page.GetProperty("Results").GetArrayLength());
    }

    [Theory]
    [InlineData("pageSize=-1", "cannot be negative")]
    [InlineData("pageSize=abc", "must be a whole number")]
    [InlineData("start=-5", "cannot be negative")]
    [InlineData("start=1.5", "must be a whole number")]
    [InlineData("pageSize=99999999999", "must be a whole number")]
    public async Task Bad_paging_parameters_return_400_naming_the_parameter(string query, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.GetAsync("/docs?" + query), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.Contains(query.Split('=')[0], message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/health")).StatusCode);
    }
}
