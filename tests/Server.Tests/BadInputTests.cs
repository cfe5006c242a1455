using System.Net;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

/// <summary>A server with one route that fails unexpectedly, and a log sink to count what it logs.</summary>
public sealed class FaultyServerFixture : ServerFixture
{
    public const string Secret = "connection-string=very-secret";

    public CapturingLoggerProvider Logs { get; } = new();

    protected override Task<TestServer> StartAsync() => TestServer.StartAsync(
        configure: builder => builder.Services.AddSingleton<ILoggerProvider>(Logs),
        addRoutes: app => app.MapGet("/test/fault", string () => throw new InvalidOperationException(Secret)));
}

public sealed partial class BadInputTests(FaultyServerFixture fixture) : IClassFixture<FaultyServerFixture>
{
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Theory]
    [InlineData("{\"a\":", "not valid JSON")]
    [InlineData("[1,2]", "must be a JSON object, not an array")]
    [InlineData("42", "must be a JSON object")]
    [InlineData("", "empty")]
    [InlineData("{} {}", "after a single JSON value")]
    public async Task Put_of_a_body_that_is_not_one_JSON_object_returns_400(string body, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await _server.PutAsync("bad/1", body), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/bad/1")).StatusCode);
        await AssertStillServingAsync();
    }

    [Theory]
    [InlineData("/docs/%20", "empty or whitespace")]
    [InlineData("/docs/", "key is required")]
    [InlineData("/docs/a%01b", "control characters")]
    public async Task Put_with_a_bad_key_returns_400(string path, string expected)
    {
        var response = await Client.PutAsync(path, TestServer.Json("{}"));
        Assert.Contains(expected, await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest), StringComparison.Ordinal);
        await AssertStillServingAsync();
    }

    [Fact]
    public async Task A_bulk_patch_without_operations_names_the_command_without_the_parameter_suffix()
    {
        await _server.PutAsync("patched/1", "{}");
        var response = await Client.PostAsync("/bulk_docs", TestServer.Json("[{\"Method\":\"PATCH\",\"Key\":\"patched/1\",\"Patch\":[]}]"));
        var message = await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest);
        Assert.Contains("at least one operation", message, StringComparison.Ordinal);
        Assert.DoesNotContain("(Parameter", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Put_with_a_key_over_255_bytes_returns_400()
    {
        var response = await _server.PutAsync(new string('k', 256), "{}");
        Assert.Contains("255 bytes", await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Put_with_a_malformed_If_Match_returns_400()
    {
        var response = await _server.PutAsync("bad/etag", "{}", ifMatch: "\"yesterday\"");
        Assert.Contains("If-Match", await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_body_over_the_limit_returns_413_and_the_server_keeps_serving()
    {
        var body = new byte[33 * 1024 * 1024];
        body.AsSpan().Fill((byte)' ');
        "{\"a\":1}"u8.CopyTo(body);
        var response = await Client.PutAsync("/docs/huge/1", JsonBytes(body));
        Assert.Contains("limit", await JsonAssert.ErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, ErrorCodes.PayloadTooLarge), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/huge/1")).StatusCode);
        await AssertStillServingAsync();
    }

    [Fact]
    public async Task A_client_that_expects_100_continue_gets_413_before_sending_the_body()
    {
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/huge/2") { Content = JsonBytes(new byte[40 * 1024 * 1024]) };
        request.Headers.ExpectContinue = true;
        var response = await Client.SendAsync(request);
        await JsonAssert.ErrorAsync(response, HttpStatusCode.RequestEntityTooLarge, ErrorCodes.PayloadTooLarge);
        await AssertStillServingAsync();
    }

    [Fact]
    public async Task A_chunked_body_over_the_limit_returns_413_too()
    {
        var content = new StreamContent(new MemoryStream(new byte[33 * 1024 * 1024]));
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        var request = new HttpRequestMessage(HttpMethod.Post, "/bulk_docs") { Content = content };
        request.Headers.TransferEncodingChunked = true;
        var response = await Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        await AssertStillServingAsync();
    }

    [Fact]
    public async Task Unexpected_errors_return_500_without_details_and_are_logged_once()
    {
        var response = await Client.GetAsync("/test/fault");
        var text = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.DoesNotContain(FaultyServerFixture.Secret, text, StringComparison.Ordinal);
        Assert.DoesNotContain("InvalidOperationException", text, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", text, StringComparison.Ordinal);
        Assert.Contains("unexpected error", await JsonAssert.ErrorAsync(await Client.GetAsync("/test/fault"), HttpStatusCode.InternalServerError, ErrorCodes.Internal),
            StringComparison.Ordinal);
        var logged = fixture.Logs.Entries.Where(e => e.Exception?.Message == FaultyServerFixture.Secret).ToList();
        Assert.Equal(2, logged.Count);
        Assert.All(logged, e => Assert.Equal(LogLevel.Error, e.Level));
        await AssertStillServingAsync();
    }

    private static ByteArrayContent JsonBytes(byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        return content;
    }

    private async Task AssertStillServingAsync() =>
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/health")).StatusCode);
}
