using System.Net;
using System.Net.Http.Headers;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary><c>POST /queries</c> tags its answer by the keys and their etags and honours <c>If-None-Match</c> as a GET would.</summary>
public sealed class MultiGetETagRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task A_multi_get_naming_the_current_ETag_gets_304_without_a_body()
    {
        await _server.PutAsync("tagged/1", """{"v":1}""");
        using var first = await PostAsync("""["tagged/1","tagged/none"]""", etag: null);
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        var etag = first.Headers.ETag!;

        using var again = await PostAsync("""["tagged/1","tagged/none"]""", etag);
        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
        Assert.Empty(await again.Content.ReadAsByteArrayAsync());
        Assert.Equal(etag, again.Headers.ETag);
    }

    [Fact]
    public async Task A_write_to_any_key_or_other_keys_give_a_new_ETag_and_a_full_answer()
    {
        await _server.PutAsync("tagged/2", """{"v":1}""");
        using var first = await PostAsync("""["tagged/2","tagged/3"]""", etag: null);
        var etag = first.Headers.ETag!;

        using var otherKeys = await PostAsync("""["tagged/3","tagged/2"]""", etag);
        Assert.Equal(HttpStatusCode.OK, otherKeys.StatusCode);
        Assert.NotEqual(etag, otherKeys.Headers.ETag);

        await _server.PutAsync("tagged/3", """{"v":3}""");
        using var afterWrite = await PostAsync("""["tagged/2","tagged/3"]""", etag);
        Assert.Equal(HttpStatusCode.OK, afterWrite.StatusCode);
        Assert.NotEqual(etag, afterWrite.Headers.ETag);
        Assert.Contains("\"v\":3", await afterWrite.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private async Task<HttpResponseMessage> PostAsync(string keys, EntityTagHeaderValue? etag)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/queries") { Content = TestServer.Json(keys) };
        if (etag is not null)
            request.Headers.IfNoneMatch.Add(etag);
        return await _server.Client.SendAsync(request);
    }
}
