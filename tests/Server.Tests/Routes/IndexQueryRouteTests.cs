using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Queries over HTTP against 1,024 seed carts. Writes here use other entity names, so <c>Tag:Item</c> stays 1,024.</summary>
public sealed class IndexQueryRouteTests(SeedCartServerFixture fixture) : IClassFixture<SeedCartServerFixture>
{
    private const string SeedQuery = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=1024&waitForNonStaleResults=true";
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Fact]
    public async Task The_seed_query_returns_all_1024_carts_with_metadata()
    {
        var response = await Client.GetAsync(SeedQuery);
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
        Assert.Equal("application/json; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        Assert.NotNull(response.Headers.ETag);

        var results = body.GetProperty("Results").EnumerateArray().ToList();
        Assert.Equal(SeedCartServerFixture.Carts, results.Count);
        Assert.Equal(SeedCartServerFixture.Carts, body.GetProperty("TotalResults").GetInt32());
        Assert.Equal(0, body.GetProperty("SkippedResults").GetInt32());
        Assert.False(body.GetProperty("IsStale").GetBoolean());
        Assert.True(long.Parse(body.GetProperty("IndexEtag").GetString()!, System.Globalization.CultureInfo.InvariantCulture) >= SeedCartServerFixture.Carts);
        Assert.Equal(JsonValueKind.String, body.GetProperty("IndexTimestamp").ValueKind);
        Assert.Equal(0, body.GetProperty("Start").GetInt32());
        Assert.Equal(1024, body.GetProperty("PageSize").GetInt32());
        Assert.False(body.TryGetProperty("RequestedPageSize", out _), "RequestedPageSize appears only when the page size was clamped");
        Assert.Equal(JsonValueKind.Null, body.GetProperty("Continuation").ValueKind);

        Assert.All(results, cart =>
        {
            Assert.Equal(666, cart.GetProperty("cartId").GetInt32());
            Assert.Equal("Item", cart.GetProperty("@metadata").GetProperty("Raven-Entity-Name").GetString());
        });
        var ids = results.Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()).ToHashSet();
        Assert.Equal(SeedCartServerFixture.Carts, ids.Count);
        Assert.Contains("carts/1023", ids);
    }

    [Fact]
    public async Task Continuation_pages_through_every_cart_once()
    {
        var seen = new List<string>();
        string? after = null;
        var pages = 0;
        do
        {
            var url = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=300&waitForNonStaleResults=true"
                + (after is null ? "" : "&after=" + Uri.EscapeDataString(after));
            var page = await JsonAssert.ReadAsync(await Client.GetAsync(url), HttpStatusCode.OK);
            Assert.Equal(SeedCartServerFixture.Carts, page.GetProperty("TotalResults").GetInt32());
            seen.AddRange(page.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!));
            after = page.GetProperty("Continuation").GetString();
            pages++;
        }
        while (after is not null);

        Assert.Equal(4, pages);
        Assert.Equal(SeedCartServerFixture.Carts, seen.Count);
        Assert.Equal(SeedCartServerFixture.Carts, seen.Distinct(StringComparer.Ordinal).Count());
    }

    [Fact]
    public async Task Start_and_sort_page_a_sorted_query()
    {
        var url = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&start=10&pageSize=5&sort=-LastModified&waitForNonStaleResults=true&timeout=00:00:10";
        var page = await JsonAssert.ReadAsync(await Client.GetAsync(url), HttpStatusCode.OK);
        Assert.Equal(10, page.GetProperty("Start").GetInt32());
        Assert.Equal(5, page.GetProperty("Results").GetArrayLength());
        Assert.Equal(JsonValueKind.String, page.GetProperty("Continuation").ValueKind);
    }

    [Fact]
    public async Task A_page_size_over_the_maximum_is_clamped_and_says_so()
    {
        var page = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=5000&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.Equal(1024, page.GetProperty("PageSize").GetInt32());
        Assert.Equal(5000, page.GetProperty("RequestedPageSize").GetInt32());
        Assert.Equal(1024, page.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task A_user_index_over_product_ids_can_be_put_and_queried()
    {
        var definition = """{"EntityName": "Item", "Fields": [{"Name": "ProductId", "Path": "itemList[].productId"}, {"Name": "Price", "Path": "itemList[].price", "Sort": "Double"}]}""";
        var put = await JsonAssert.ReadAsync(await Client.PutAsync("/indexes/Carts/ByProduct", TestServer.Json(definition)), HttpStatusCode.Created);
        Assert.Equal("Carts/ByProduct", put.GetProperty("Index").GetString());

        var matches = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Carts/ByProduct?query=ProductId:42&pageSize=2&waitForNonStaleResults=true&timeout=20"), HttpStatusCode.OK);
        Assert.Equal(SeedCartServerFixture.Carts, matches.GetProperty("TotalResults").GetInt32());
        Assert.Equal(2, matches.GetProperty("Results").GetArrayLength());
        Assert.Equal(666, matches.GetProperty("Results")[0].GetProperty("cartId").GetInt32());

        var none = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Carts/ByProduct?query=ProductId:43&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.Equal(0, none.GetProperty("TotalResults").GetInt32());
        Assert.Equal(0, none.GetProperty("Results").GetArrayLength());

        var cheap = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Carts/ByProduct?query=Price:[6%20TO%207]&pageSize=0&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.Equal(SeedCartServerFixture.Carts, cheap.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task If_None_Match_gives_304_until_a_write_changes_the_tag()
    {
        const string url = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=3&waitForNonStaleResults=true";
        var first = await Client.GetAsync(url);
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        var etag = first.Headers.ETag!;

        var again = await SendWithIfNoneMatchAsync(url, etag);
        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
        Assert.Equal(etag, again.Headers.ETag);
        Assert.Empty(await again.Content.ReadAsByteArrayAsync());

        var otherQuery = await SendWithIfNoneMatchAsync(url.Replace("pageSize=3", "pageSize=4", StringComparison.Ordinal), etag);
        Assert.Equal(HttpStatusCode.OK, otherQuery.StatusCode);

        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("notes/etag-test", """{"text":"changes the database"}""", "Note")).StatusCode);
        var afterWrite = await SendWithIfNoneMatchAsync(url, etag);
        Assert.Equal(HttpStatusCode.OK, afterWrite.StatusCode);
        Assert.NotEqual(etag, afterWrite.Headers.ETag);
        Assert.Equal(HttpStatusCode.NotModified, (await SendWithIfNoneMatchAsync(url, afterWrite.Headers.ETag!)).StatusCode);
    }

    [Theory]
    [InlineData("query=Tag:%22Item", "position")]
    [InlineData("query=Tag:(Item", "position 4")]
    [InlineData("query=Nope:Item", "Nope")]
    public async Task Bad_query_syntax_returns_400_with_the_position_and_the_server_keeps_serving(string query, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?" + query), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.StartsWith("Cannot parse query", message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/health")).StatusCode);
        var stillWorks = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=0&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.Equal(SeedCartServerFixture.Carts, stillWorks.GetProperty("TotalResults").GetInt32());
    }

    [Theory]
    [InlineData("pageSize=-1", "cannot be negative")]
    [InlineData("pageSize=abc", "must be a whole number")]
    [InlineData("start=-2", "cannot be negative")]
    [InlineData("waitForNonStaleResults=maybe", "true or false")]
    [InlineData("waitForNonStaleResults=true&timeout=soon", "timeout")]
    [InlineData("waitForNonStaleResults=true&timeout=0", "more than 0")]
    [InlineData("waitForNonStaleResults=true&timeout=3600", "at most 300 seconds")]
    [InlineData("sort=Nope", "sortable")]
    [InlineData("after=not-a-token", "ontinuation")]
    [InlineData("start=5&after=abc", "not both")]
    public async Task Bad_query_parameters_return_400(string query, string expected)
    {
        var message = await JsonAssert.ErrorAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Item&" + query), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task Querying_an_unknown_index_returns_404()
    {
        var message = await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/No/Such/Index?query=A:b"), HttpStatusCode.NotFound);
        Assert.Contains("No/Such/Index", message, StringComparison.Ordinal);
        await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/No/Such/Index?query=A:b&waitForNonStaleResults=true"), HttpStatusCode.NotFound);
    }

    private Task<HttpResponseMessage> SendWithIfNoneMatchAsync(string url, EntityTagHeaderValue etag)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, url);
        request.Headers.IfNoneMatch.Add(etag);
        return Client.SendAsync(request);
    }
}
