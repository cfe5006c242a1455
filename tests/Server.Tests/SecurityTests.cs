using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

public sealed class SecurityTests
{
    private const string Key = "0123456789abcdef-test-key";

    [Theory]
    [InlineData("http://0.0.0.0:0")]
    [InlineData("http://*:0")]
    [InlineData("http://+:0")]
    [InlineData("http://[::]:0")]
    [InlineData("http://127.0.0.1:0;http://example.com:0")]
    public void Listening_beyond_loopback_without_an_API_key_refuses_to_start(string urls)
    {
        var directory = TestServer.NewDataDirectory();
        var ex = Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", directory, "--urls", urls]));
        Assert.Contains("without an API key", ex.Message, StringComparison.Ordinal);
        Assert.NotEqual(0, ex.ExitCode);
        Assert.False(Directory.Exists(directory), "nothing was opened");
    }

    [Fact]
    public void A_short_API_key_is_refused()
    {
        var ex = Assert.Throws<ServerStartupException>(() =>
            RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--api-key", "short"]));
        Assert.Contains("at least 16", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task With_an_API_key_on_0_0_0_0_requests_without_the_right_X_Api_Key_get_401()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://0.0.0.0:0", "--api-key", Key]);

        Assert.Contains("Missing X-Api-Key", await JsonAssert.ErrorAsync(await server.Client.GetAsync("/health"), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized),
            StringComparison.Ordinal);
        var wrong = new HttpRequestMessage(HttpMethod.Get, "/docs/a");
        wrong.Headers.Add("X-Api-Key", Key + "x");
        Assert.Contains("Wrong X-Api-Key", await JsonAssert.ErrorAsync(await server.Client.SendAsync(wrong), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized),
            StringComparison.Ordinal);
        var put = new HttpRequestMessage(HttpMethod.Put, "/docs/a") { Content = TestServer.Json("{}") };
        put.Headers.Add("X-Api-Key", "nope-nope-nope-nope");
        await JsonAssert.ErrorAsync(await server.Client.SendAsync(put), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);

        server.Client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        Assert.Equal(HttpStatusCode.NotFound, (await server.Client.GetAsync("/docs/a")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);
    }

    [Fact]
    public async Task With_an_API_key_on_loopback_it_is_required_too()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--api-key", Key]);
        await JsonAssert.ErrorAsync(await server.Client.GetAsync("/stats"), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
    }

    [Theory]
    [InlineData("http://127.0.0.1:8080", true)]
    [InlineData("http://localhost:8080", true)]
    [InlineData("http://[::1]:8080", true)]
    [InlineData("https://127.0.0.2:443/base", true)]
    [InlineData("http://0.0.0.0:8080", false)]
    [InlineData("http://*:8080", false)]
    [InlineData("http://+:8080", false)]
    [InlineData("http://[::]:8080", false)]
    [InlineData("http://10.1.2.3:8080", false)]
    [InlineData("http://myhost:8080", false)]
    public void Loopback_detection(string url, bool loopback) =>
        Assert.Equal(loopback, Hosting.ListenAddresses.IsLoopback(url));
}
