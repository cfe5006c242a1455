using System.Net;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 30, bounded memory: the body limit follows the document limit; <c>/changes</c> streams are capped; wrong API
/// keys meet ASP.NET Core's rate limiter.
/// </summary>
public sealed class BoundedMemoryTests
{
    private const string Key = "bounded-memory-test-key-0123456789";

    [Fact]
    public async Task The_body_limit_follows_the_document_limit_so_an_oversized_document_is_413_before_it_is_read_whole()
    {
        await using var server = await TestServer.StartAsync();
        Assert.Equal(17L * 1024 * 1024, server.App.Services.GetRequiredService<RavenLiteServerOptions>().MaxRequestBodyBytes);
        var body = new byte[18 * 1024 * 1024];
        body.AsSpan().Fill((byte)' ');
        "{\"a\":1}"u8.CopyTo(body);
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/big/1") { Content = new ByteArrayContent(body) };
        request.Content.Headers.ContentType = new("application/json");
        request.Headers.ExpectContinue = true;

        var response = await server.Client.SendAsync(request);

        await JsonAssert.ErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, ErrorCodes.PayloadTooLarge);
    }

    [Fact]
    public async Task Changes_streams_beyond_the_cap_get_a_503_too_many_connections_and_health_answers()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--RavenLite:Changes:MaxConnections=2"]);
        using var first = await server.Client.GetAsync("/changes?from=0", HttpCompletionOption.ResponseHeadersRead);
        using var second = await server.Client.GetAsync("/changes?from=0", HttpCompletionOption.ResponseHeadersRead);

        using var third = await server.Client.GetAsync("/changes?from=0", HttpCompletionOption.ResponseHeadersRead);

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        var detail = await JsonAssert.ErrorAsync(third, HttpStatusCode.ServiceUnavailable, ErrorCodes.TooManyConnections);
        Assert.Contains("Changes:MaxConnections", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task Wrong_keys_beyond_the_limit_get_429_with_Retry_After_even_with_the_right_key_then()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--api-key", Key, "--RavenLite:AuthFailuresPerMinute=3"]);
        async Task<HttpResponseMessage> SendAsync(string key)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, "/stats");
            request.Headers.Add("X-Api-Key", key);
            return await server.Client.SendAsync(request);
        }
        Assert.Equal(HttpStatusCode.OK, (await SendAsync(Key)).StatusCode);

        for (var i = 0; i < 3; i++)
            await JsonAssert.ErrorAsync(await SendAsync("wrong-key-" + i), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
        var limited = await SendAsync("wrong-key-3");
        var thenRight = await SendAsync(Key);

        Assert.Contains("AuthFailuresPerMinute", await JsonAssert.ErrorAsync(limited, HttpStatusCode.TooManyRequests, ErrorCodes.TooManyRequests), StringComparison.Ordinal);
        Assert.Equal("60", limited.Headers.GetValues("Retry-After").Single());
        await JsonAssert.ErrorAsync(thenRight, HttpStatusCode.TooManyRequests, ErrorCodes.TooManyRequests);
    }
}
