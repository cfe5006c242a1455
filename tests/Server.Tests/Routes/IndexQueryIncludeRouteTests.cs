using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>
/// <c>include=</c> on an index query: the referenced documents in an <c>Includes</c> section, and a tag and a kept body
/// that follow the included documents, not only the index.
/// </summary>
public sealed class IndexQueryIncludeRouteTests : IAsyncLifetime
{
    private const string Orders = "/indexes/Raven/DocumentsByEntityName?query=Tag:Order&waitForNonStaleResults=true";
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        await _server.PutAsync("customers/1", """{"Name":"ayende"}""", "Customer");
        await _server.PutAsync("products/a", """{"Name":"a"}""", "Product");
        await _server.PutAsync("orders/1", """{"CustomerId":"customers/1","Lines":[{"ProductId":"products/a"},{"ProductId":"products/none"}]}""", "Order");
        await _server.PutAsync("orders/2", """{"CustomerId":"customers/1","Lines":[{"ProductId":"products/a"}]}""", "Order");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task Include_brings_each_referenced_document_once_and_skips_missing_ones()
    {
        var response = await _server.Client.GetAsync(Orders + "&include=CustomerId&include=Lines[].ProductId");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        Assert.Equal(2, body.GetProperty("Results").GetArrayLength());
        Assert.Equal(["customers/1", "products/a"], Ids(body.GetProperty("Includes")).Order(StringComparer.Ordinal));
        Assert.Equal("ayende", body.GetProperty("Includes").EnumerateArray().Single(d => Id(d) == "customers/1").GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Without_include_there_is_no_Includes_section_and_the_kept_plain_answer_is_not_served_for_one()
    {
        var plain = await JsonAssert.ReadAsync(await _server.Client.GetAsync(Orders), HttpStatusCode.OK);
        Assert.False(plain.TryGetProperty("Includes", out _));

        var response = await _server.Client.GetAsync(Orders + "&include=CustomerId");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        Assert.Equal(["customers/1"], Ids(body.GetProperty("Includes")));
        Assert.Equal("miss", CacheState(response));
    }

    [Fact]
    public async Task A_change_to_an_included_document_changes_the_tag_and_is_never_served_from_the_kept_body()
    {
        var url = Orders + "&include=CustomerId";
        var first = await _server.Client.GetAsync(url);
        await JsonAssert.ReadAsync(first, HttpStatusCode.OK);
        var again = await _server.Client.GetAsync(url);
        Assert.Equal("hit", CacheState(again));
        Assert.Equal(first.Headers.ETag, again.Headers.ETag);

        (await _server.PutAsync("customers/1", """{"Name":"oren"}""", "Customer")).EnsureSuccessStatusCode();
        var request = new HttpRequestMessage(HttpMethod.Get, url);
        request.Headers.IfNoneMatch.Add(first.Headers.ETag!);
        var after = await _server.Client.SendAsync(request);
        var body = await JsonAssert.ReadAsync(after, HttpStatusCode.OK);

        Assert.NotEqual(first.Headers.ETag, after.Headers.ETag);
        Assert.Equal("miss", CacheState(after));
        Assert.Equal("oren", body.GetProperty("Includes")[0].GetProperty("Name").GetString());
        var kept = await _server.Client.GetAsync(url);
        Assert.Equal("hit", CacheState(kept));
        Assert.Equal(after.Headers.ETag, kept.Headers.ETag);
        Assert.Equal("oren", (await JsonAssert.ReadAsync(kept, HttpStatusCode.OK)).GetProperty("Includes")[0].GetProperty("Name").GetString());
    }

    [Fact]
    public async Task The_include_paths_are_part_of_the_tag()
    {
        var one = await _server.Client.GetAsync(Orders + "&include=CustomerId");
        var two = await _server.Client.GetAsync(Orders + "&include=Lines[].ProductId");

        Assert.NotEqual(one.Headers.ETag, two.Headers.ETag);
        Assert.Equal(["products/a"], Ids((await JsonAssert.ReadAsync(two, HttpStatusCode.OK)).GetProperty("Includes")));
    }

    [Theory]
    [InlineData("include=Lines[0].ProductId", "Lines[0].ProductId")]
    [InlineData("include=Customer..Id", "Customer..Id")]
    public async Task A_bad_include_path_is_a_400_naming_it(string parameter, string path)
    {
        var detail = await JsonAssert.ErrorAsync(await _server.Client.GetAsync(Orders + "&" + parameter), HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Contains("'include'", detail, StringComparison.Ordinal);
        Assert.Contains(path, detail, StringComparison.Ordinal);
    }

    private static string CacheState(HttpResponseMessage response) =>
        ServerTimingHeader.Parse(response).Single(m => m.Name == "cache").Description!;

    private static string Id(JsonElement document) => document.GetProperty("@metadata").GetProperty("@id").GetString()!;

    private static string[] Ids(JsonElement documents) => [.. documents.EnumerateArray().Select(Id)];
}
