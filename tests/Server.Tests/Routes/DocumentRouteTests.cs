using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class DocumentRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Fact]
    public async Task Put_returns_201_with_key_and_etag_and_get_returns_the_json_as_stored()
    {
        var put = await JsonAssert.ReadAsync(await _server.PutAsync("carts/1", """{"total": 3, "items":[{"sku":"a"}]}""", "Cart"),
            HttpStatusCode.Created);
        Assert.Equal("carts/1", put.GetProperty("Key").GetString());
        var etag = put.GetProperty("ETag").GetString();

        var get = await Client.GetAsync("/docs/CARTS/1");
        Assert.Equal(HttpStatusCode.OK, get.StatusCode);
        Assert.Equal($"\"{etag}\"", get.Headers.ETag!.ToString());
        Assert.Equal("Cart", get.Headers.GetValues("Raven-Entity-Name").Single());
        Assert.NotNull(get.Content.Headers.LastModified);
        Assert.Equal("application/json; charset=utf-8", get.Content.Headers.ContentType!.ToString());
        Assert.Equal("""{"total":3,"items":[{"sku":"a"}]}""", await get.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Raven_headers_are_stored_as_metadata_and_sent_back()
    {
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/meta/1") { Content = TestServer.Json("{}") };
        request.Headers.Add("Raven-Entity-Name", "Meta");
        request.Headers.Add("Raven-Source", "import");
        request.Headers.Add("X-Other", "ignored");
        Assert.Equal(HttpStatusCode.Created, (await Client.SendAsync(request)).StatusCode);

        var get = await Client.GetAsync("/docs/meta/1");
        Assert.Equal("import", get.Headers.GetValues("Raven-Source").Single());
        Assert.False(get.Headers.Contains("X-Other"));
        Assert.Equal("{}", await get.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Get_with_current_etag_in_If_None_Match_returns_304_without_body()
    {
        await _server.PutAsync("cached/1", """{"a":1}""");
        var first = await Client.GetAsync("/docs/cached/1");
        var request = new HttpRequestMessage(HttpMethod.Get, "/docs/cached/1");
        request.Headers.IfNoneMatch.Add(first.Headers.ETag!);
        var second = await Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.NotModified, second.StatusCode);
        Assert.Empty(await second.Content.ReadAsByteArrayAsync());

        await _server.PutAsync("cached/1", """{"a":2}""");
        Assert.Equal(HttpStatusCode.OK, (await Client.SendAsync(Clone(request))).StatusCode);
    }

    [Fact]
    public async Task Head_returns_headers_without_body()
    {
        await _server.PutAsync("head/1", """{"a":1}""", "Thing");
        var head = await Client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/docs/head/1"));
        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.NotNull(head.Headers.ETag);
        Assert.Equal("Thing", head.Headers.GetValues("Raven-Entity-Name").Single());
        Assert.Equal(7, head.Content.Headers.ContentLength);
        Assert.Empty(await head.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.NotFound, (await Client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/docs/head/2"))).StatusCode);
    }

    [Fact]
    public async Task Get_of_unknown_document_returns_404_with_json_error()
    {
        var message = await JsonAssert.ErrorAsync(await Client.GetAsync("/docs/missing/1"), HttpStatusCode.NotFound);
        Assert.Contains("missing/1", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Put_with_stale_If_Match_returns_409_and_leaves_the_document_unchanged()
    {
        var first = await JsonAssert.ReadAsync(await _server.PutAsync("stale/1", """{"v":1}"""), HttpStatusCode.Created);
        var staleEtag = $"\"{first.GetProperty("ETag").GetString()}\"";
        await _server.PutAsync("stale/1", """{"v":2}""");

        var problem = await JsonAssert.ProblemAsync(await _server.PutAsync("stale/1", """{"v":3}""", ifMatch: staleEtag), HttpStatusCode.Conflict,
            ErrorCodes.ConcurrencyConflict);
        Assert.Contains("concurrency conflict", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal("stale/1", problem.GetProperty("key").GetString());
        Assert.Equal(staleEtag.Trim('"'), problem.GetProperty("expectedEtag").GetString());
        Assert.Equal(JsonValueKind.Null, problem.GetProperty("commandIndex").ValueKind);
        Assert.Equal("""{"v":2}""", await Client.GetStringAsync("/docs/stale/1"));
    }

    [Fact]
    public async Task Put_with_current_If_Match_succeeds()
    {
        var first = await _server.PutAsync("match/1", """{"v":1}""");
        var second = await _server.PutAsync("match/1", """{"v":2}""", ifMatch: first.Headers.ETag!.ToString());
        Assert.Equal(HttpStatusCode.Created, second.StatusCode);
        Assert.Equal("""{"v":2}""", await Client.GetStringAsync("/docs/match/1"));
    }

    [Fact]
    public async Task Put_with_If_None_Match_star_refuses_to_overwrite()
    {
        var create = new HttpRequestMessage(HttpMethod.Put, "/docs/once/1") { Content = TestServer.Json("""{"v":1}""") };
        create.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any);
        Assert.Equal(HttpStatusCode.Created, (await Client.SendAsync(create)).StatusCode);
        var again = Clone(create, """{"v":2}""");
        await JsonAssert.ErrorAsync(await Client.SendAsync(again), HttpStatusCode.Conflict, ErrorCodes.ConcurrencyConflict);
    }

    [Fact]
    public async Task Post_generates_a_key_from_the_entity_name_and_returns_it_with_Location()
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/docs") { Content = TestServer.Json("""{"name":"Ayende"}""") };
        request.Headers.Add("Raven-Entity-Name", "User");
        var response = await Client.SendAsync(request);
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.Created);
        var key = body.GetProperty("Key").GetString()!;
        Assert.StartsWith("user/", key, StringComparison.Ordinal);
        Assert.Equal("/docs/" + key, response.Headers.Location!.ToString());
        Assert.Equal("""{"name":"Ayende"}""", await Client.GetStringAsync(response.Headers.Location));
    }

    [Fact]
    public async Task Delete_returns_204_and_the_document_is_gone()
    {
        await _server.PutAsync("del/1", "{}");
        Assert.Equal(HttpStatusCode.NoContent, (await Client.DeleteAsync("/docs/del/1")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/del/1")).StatusCode);
        // Deleting what is not there is a no-op without If-Match.
        Assert.Equal(HttpStatusCode.NoContent, (await Client.DeleteAsync("/docs/del/1")).StatusCode);
    }

    [Fact]
    public async Task Delete_with_stale_If_Match_returns_409_and_keeps_the_document()
    {
        await _server.PutAsync("del/2", "{}");
        var request = new HttpRequestMessage(HttpMethod.Delete, "/docs/del/2");
        request.Headers.TryAddWithoutValidation("If-Match", "\"999999\"");
        await JsonAssert.ErrorAsync(await Client.SendAsync(request), HttpStatusCode.Conflict, ErrorCodes.ConcurrencyConflict);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/docs/del/2")).StatusCode);

        var missing = new HttpRequestMessage(HttpMethod.Delete, "/docs/del/never");
        missing.Headers.TryAddWithoutValidation("If-Match", "\"5\"");
        await JsonAssert.ErrorAsync(await Client.SendAsync(missing), HttpStatusCode.Conflict, ErrorCodes.ConcurrencyConflict);
    }

    private static HttpRequestMessage Clone(HttpRequestMessage request, string? json = null)
    {
        var copy = new HttpRequestMessage(request.Method, request.RequestUri);
        foreach (var header in request.Headers)
            copy.Headers.TryAddWithoutValidation(header.Key, header.Value);
        if (json is not null)
            copy.Content = TestServer.Json(json);
        return copy;
    }
}
