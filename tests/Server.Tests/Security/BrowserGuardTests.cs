using System.Net;
using System.Net.Http.Headers;
using System.Text;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>
/// Issue 11: a web page the user opens must not be able to write to (or, by DNS rebinding, read from) the
/// loopback server: Host names are loopback or configured, cross-site requests are refused unless CORS origins
/// are configured, and bodies must be declared JSON.
/// </summary>
public sealed class BrowserGuardTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;

    private string OwnOrigin => $"http://{_server.Address.Authority}";

    private static HttpRequestMessage Put(string key, string? contentType = "application/json")
    {
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = new ByteArrayContent("""{"a":1}"""u8.ToArray()) };
        if (contentType is not null)
            request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return request;
    }

    private async Task AssertNotWrittenAsync(string key) =>
        Assert.Equal(HttpStatusCode.NotFound, (await _server.Client.GetAsync("/docs/" + key)).StatusCode);

    [Theory]
    [InlineData("evil.example")]
    [InlineData("evil.example:8080")]
    [InlineData("127.0.0.1.evil.example")]
    [InlineData("localhost.evil.example")]
    [InlineData("10.0.0.1")]
    public async Task A_Host_that_is_not_loopback_is_refused_and_nothing_is_written(string host)
    {
        var request = Put("host/bad");
        request.Headers.Host = host;
        var message = await JsonAssert.ErrorAsync(await _server.Client.SendAsync(request), HttpStatusCode.BadRequest, ErrorCodes.HostNotAllowed);
        Assert.Contains("--allowed-hosts", message, StringComparison.Ordinal);
        var read = new HttpRequestMessage(HttpMethod.Get, "/stats");
        read.Headers.Host = host;
        await JsonAssert.ErrorAsync(await _server.Client.SendAsync(read), HttpStatusCode.BadRequest, ErrorCodes.HostNotAllowed);
        await AssertNotWrittenAsync("host/bad");
    }

    [Theory]
    [InlineData("localhost")]
    [InlineData("LOCALHOST")]
    [InlineData("127.0.0.1")]
    [InlineData("127.1.2.3")]
    [InlineData("[::1]")]
    public async Task Loopback_Host_names_are_accepted_with_any_port(string host)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/health");
        request.Headers.Host = $"{host}:{_server.Address.Port}";
        Assert.Equal(HttpStatusCode.OK, (await _server.Client.SendAsync(request)).StatusCode);
    }

    [Fact]
    public async Task Configured_hosts_are_accepted_and_others_still_refused()
    {
        await using var server = await TestServer.StartAsync(["--allowed-hosts", "db.internal;Other.Example"]);
        foreach (var host in new[] { "db.internal", "other.example:81" })
        {
            var ok = new HttpRequestMessage(HttpMethod.Get, "/health");
            ok.Headers.Host = host;
            Assert.Equal(HttpStatusCode.OK, (await server.Client.SendAsync(ok)).StatusCode);
        }
        var refused = new HttpRequestMessage(HttpMethod.Get, "/health");
        refused.Headers.Host = "evil.example";
        await JsonAssert.ErrorAsync(await server.Client.SendAsync(refused), HttpStatusCode.BadRequest);
    }

    [Fact]
    public async Task Allowed_hosts_can_come_from_configuration_like_the_other_options()
    {
        await using var server = await TestServer.StartAsync(["--RavenLite:AllowedHosts=db.internal"]);
        var request = new HttpRequestMessage(HttpMethod.Get, "/health");
        request.Headers.Host = "db.internal";
        Assert.Equal(HttpStatusCode.OK, (await server.Client.SendAsync(request)).StatusCode);
    }

    [Fact]
    public async Task A_cross_site_fetch_is_refused_and_nothing_is_written()
    {
        var request = Put("cross/site");
        request.Headers.Add("Sec-Fetch-Site", "cross-site");
        var message = await JsonAssert.ErrorAsync(await _server.Client.SendAsync(request), HttpStatusCode.Forbidden, ErrorCodes.CrossSite);
        Assert.Contains("cross-site", message, StringComparison.Ordinal);
        await AssertNotWrittenAsync("cross/site");
    }

    [Theory]
    [InlineData("http://evil.example")]
    [InlineData("null")]
    [InlineData("http://localhost:1")]
    [InlineData("https://127.0.0.1")]
    public async Task A_request_from_another_origin_is_refused_and_nothing_is_written(string origin)
    {
        var bulk = new HttpRequestMessage(HttpMethod.Post, "/bulk_docs")
        {
            Content = TestServer.Json("""[{"Method":"PUT","Key":"origin/bad","Document":{"a":1}}]"""),
        };
        bulk.Headers.Add("Origin", origin);
        var message = await JsonAssert.ErrorAsync(await _server.Client.SendAsync(bulk), HttpStatusCode.Forbidden, ErrorCodes.CrossSite);
        Assert.Contains("--cors-origins", message, StringComparison.Ordinal);
        await AssertNotWrittenAsync("origin/bad");
    }

    [Fact]
    public async Task Same_origin_requests_from_the_studio_pass()
    {
        var put = Put("same/origin");
        put.Headers.Add("Origin", OwnOrigin);
        put.Headers.Add("Sec-Fetch-Site", "same-origin");
        Assert.Equal(HttpStatusCode.Created, (await _server.Client.SendAsync(put)).StatusCode);
        var typed = new HttpRequestMessage(HttpMethod.Get, "/docs/same/origin");
        typed.Headers.Add("Sec-Fetch-Site", "none"); // typed into the address bar
        Assert.Equal(HttpStatusCode.OK, (await _server.Client.SendAsync(typed)).StatusCode);
        var viaLocalhost = new HttpRequestMessage(HttpMethod.Get, "/docs/same/origin");
        viaLocalhost.Headers.Host = $"localhost:{_server.Address.Port}";
        viaLocalhost.Headers.Add("Origin", $"http://localhost:{_server.Address.Port}");
        Assert.Equal(HttpStatusCode.OK, (await _server.Client.SendAsync(viaLocalhost)).StatusCode);
    }

    [Theory]
    [InlineData("text/plain")]
    [InlineData("application/x-www-form-urlencoded")]
    [InlineData("multipart/form-data; boundary=x")]
    [InlineData("application/json; charset=latin1")]
    [InlineData(null)]
    public async Task A_body_not_declared_as_json_gets_415_and_nothing_is_written(string? contentType)
    {
        var message = await JsonAssert.ErrorAsync(await _server.Client.SendAsync(Put("type/bad", contentType)), HttpStatusCode.UnsupportedMediaType);
        Assert.Contains("application/json", message, StringComparison.Ordinal);
        await AssertNotWrittenAsync("type/bad");
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/json; charset=utf-8")]
    [InlineData("Application/JSON; charset=\"UTF-8\"")]
    public async Task Json_content_types_are_accepted(string contentType)
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.Client.SendAsync(Put("type/ok", contentType))).StatusCode);
    }

    [Fact]
    public async Task Configured_CORS_origins_get_preflight_answers_and_their_requests_pass()
    {
        await using var server = await TestServer.StartAsync(["--cors-origins", "http://app.example;https://other.example:8443"]);
        var preflight = new HttpRequestMessage(HttpMethod.Options, "/docs/cors/1");
        preflight.Headers.Add("Origin", "http://app.example");
        preflight.Headers.Add("Access-Control-Request-Method", "PUT");
        preflight.Headers.Add("Access-Control-Request-Headers", "content-type, raven-entity-name");
        var answer = await server.Client.SendAsync(preflight);
        Assert.Equal(HttpStatusCode.NoContent, answer.StatusCode);
        Assert.Equal("http://app.example", Assert.Single(answer.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Contains("PUT", answer.Headers.GetValues("Access-Control-Allow-Methods").Single(), StringComparison.Ordinal);
        Assert.Contains("raven-entity-name", answer.Headers.GetValues("Access-Control-Allow-Headers").Single(), StringComparison.OrdinalIgnoreCase);

        var put = new HttpRequestMessage(HttpMethod.Put, "/docs/cors/1") { Content = TestServer.Json("{}") };
        put.Headers.Add("Origin", "http://app.example");
        put.Headers.Add("Sec-Fetch-Site", "cross-site");
        var created = await server.Client.SendAsync(put);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal("http://app.example", Assert.Single(created.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Contains("ETag", created.Headers.GetValues("Access-Control-Expose-Headers").Single(), StringComparison.Ordinal);

        var other = new HttpRequestMessage(HttpMethod.Options, "/docs/cors/2");
        other.Headers.Add("Origin", "http://evil.example");
        other.Headers.Add("Access-Control-Request-Method", "PUT");
        var refused = await server.Client.SendAsync(other);
        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.False(refused.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Theory]
    [InlineData("--allowed-hosts", "http://db.internal")]
    [InlineData("--cors-origins", "app.example")]
    [InlineData("--cors-origins", "http://app.example/path")]
    public void Malformed_host_and_origin_settings_stop_the_start(string option, string value)
    {
        var ex = Assert.Throws<ServerStartupException>(() =>
            RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), option, value]));
        Assert.Contains(option, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_error_body_of_a_refusal_is_json_even_for_a_form_post()
    {
        var form = new HttpRequestMessage(HttpMethod.Post, "/bulk_docs")
        {
            Content = new ByteArrayContent(Encoding.UTF8.GetBytes("a=1")),
        };
        form.Content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/x-www-form-urlencoded");
        await JsonAssert.ErrorAsync(await _server.Client.SendAsync(form), HttpStatusCode.UnsupportedMediaType);
    }
}
