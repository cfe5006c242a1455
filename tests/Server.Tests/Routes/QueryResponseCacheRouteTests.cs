using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Server.Indexes;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>
/// The query response cache answers an unchanged query from kept bytes, and never a page that changed: a write, an
/// index catching up, another page, sort or query text all miss. Hits are told apart by <c>Server-Timing: cache;desc=hit</c>.
/// </summary>
public sealed class QueryResponseCacheRouteTests : IAsyncLifetime
{
    private const string Index = "/indexes/Raven/DocumentsByEntityName";
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        for (var i = 1; i <= 5; i++)
            await PutAsync($"carts/{i}", i);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private DocumentDatabase Database => _server.App.Services.GetRequiredService<DocumentDatabase>();

    private QueryResponseCache Cache => _server.App.Services.GetRequiredService<QueryResponseCache>();

    [Fact]
    public async Task An_unchanged_query_is_served_from_the_cache_with_the_same_body_and_tag()
    {
        var url = Index + "?query=Tag:Cart&pageSize=10&waitForNonStaleResults=true";
        var (first, firstBody) = await GetAsync(url);
        var (second, secondBody) = await GetAsync(url);

        Assert.Equal("miss", CacheState(first));
        Assert.Equal("hit", CacheState(second));
        Assert.Equal(first.Headers.ETag, second.Headers.ETag);
        Assert.Equal(second.Content.Headers.ContentLength, (await second.Content.ReadAsByteArrayAsync()).Length);
        Assert.Equal(Ids(firstBody), Ids(secondBody));
        Assert.True(secondBody.GetProperty("Timings").GetProperty("Cached").GetBoolean());
        Assert.False(firstBody.GetProperty("Timings").GetProperty("Cached").GetBoolean());
    }

    [Fact]
    public async Task A_write_between_two_identical_queries_shows_in_the_second_answer()
    {
        var url = Index + "?query=Tag:Cart&pageSize=10&waitForNonStaleResults=true";
        await GetAsync(url);
        await GetAsync(url);
        await PutAsync("carts/6", 6);

        var (after, body) = await GetAsync(url);

        Assert.Equal("miss", CacheState(after));
        Assert.Contains("carts/6", Ids(body));
    }

    [Fact]
    public async Task A_changed_document_is_never_served_in_its_old_version()
    {
        var url = Index + "?query=Tag:Cart&pageSize=10&waitForNonStaleResults=true";
        await GetAsync(url);
        await PutAsync("carts/1", 100);

        var (_, body) = await GetAsync(url);

        var cart = body.GetProperty("Results").EnumerateArray().Single(r => r.GetProperty("@metadata").GetProperty("@id").GetString() == "carts/1");
        Assert.Equal(100, cart.GetProperty("total").GetInt32());
    }

    [Fact]
    public async Task A_stale_answer_is_not_kept_and_the_index_catching_up_changes_the_answer()
    {
        var url = Index + "?query=Tag:Cart&pageSize=10";
        await GetAsync(url + "&waitForNonStaleResults=true");
        var kept = Cache.Count;
        using (Database.Indexes.PauseIndexing())
        {
            await PutAsync("carts/7", 7);
            var (stale, staleBody) = await GetAsync(url);
            Assert.True(staleBody.GetProperty("IsStale").GetBoolean());
            Assert.Equal("miss", CacheState(stale));
            Assert.DoesNotContain("carts/7", Ids(staleBody));
            var (again, _) = await GetAsync(url);
            Assert.Equal("miss", CacheState(again));
            Assert.Equal(kept, Cache.Count);
        }

        var (caughtUp, body) = await GetAsync(url + "&waitForNonStaleResults=true");
        Assert.Equal("miss", CacheState(caughtUp));
        Assert.False(body.GetProperty("IsStale").GetBoolean());
        Assert.Contains("carts/7", Ids(body));
    }

    [Theory]
    [InlineData("?query=Tag:Cart&pageSize=2&waitForNonStaleResults=true", "?query=Tag:Cart&pageSize=3&waitForNonStaleResults=true")]
    [InlineData("?query=Tag:Cart&pageSize=2&waitForNonStaleResults=true", "?query=Tag:Cart&pageSize=2&start=2&waitForNonStaleResults=true")]
    [InlineData("?query=Tag:Cart&pageSize=2&waitForNonStaleResults=true", "?query=Tag:Cart&pageSize=2&sort=-LastModified&waitForNonStaleResults=true")]
    [InlineData("?query=Tag:Cart&pageSize=2&waitForNonStaleResults=true", "?query=Tag:Other&pageSize=2&waitForNonStaleResults=true")]
    public async Task Another_page_sort_or_query_text_is_another_entry(string one, string other)
    {
        var (_, firstBody) = await GetAsync(Index + one);
        var (response, body) = await GetAsync(Index + other);

        Assert.Equal("miss", CacheState(response));
        Assert.NotEqual(firstBody.GetRawText(), body.GetRawText());
        Assert.Equal("hit", CacheState((await GetAsync(Index + other)).Response));
    }

    [Fact]
    public async Task A_kept_response_still_answers_If_None_Match_with_304()
    {
        var url = Index + "?query=Tag:Cart&pageSize=10&waitForNonStaleResults=true";
        var (first, _) = await GetAsync(url);
        var request = new HttpRequestMessage(HttpMethod.Get, url);
        request.Headers.IfNoneMatch.Add(first.Headers.ETag!);

        var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.NotModified, response.StatusCode);
        Assert.Equal("hit", CacheState(response));
    }

    [Fact]
    public async Task With_the_cache_off_every_query_runs()
    {
        await using var server = await TestServer.StartAsync(["--query-cache-mb", "0"]);
        await server.PutAsync("carts/1", """{"total":1}""", "Cart");
        var url = Index + "?query=Tag:Cart&waitForNonStaleResults=true";

        await server.Client.GetAsync(url);
        var second = await server.Client.GetAsync(url);

        Assert.Equal("miss", CacheState(second));
        Assert.Equal(0, server.App.Services.GetRequiredService<QueryResponseCache>().Count);
    }

    private async Task PutAsync(string key, int total) =>
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync(key, $$"""{"total":{{total}}}""", "Cart")).StatusCode);

    private async Task<(HttpResponseMessage Response, JsonElement Body)> GetAsync(string url)
    {
        var response = await _server.Client.GetAsync(url);
        return (response, await JsonAssert.ReadAsync(response, HttpStatusCode.OK));
    }

    private static string CacheState(HttpResponseMessage response) =>
        ServerTimingHeader.Parse(response).Single(m => m.Name == "cache").Description!;

    private static List<string> Ids(JsonElement body) =>
        [.. body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];
}
