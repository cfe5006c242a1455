using System.Net;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

/// <summary>Issue 30: OpenTelemetry, off unless configured; a Prometheus scrape endpoint behind the admin scope; OTLP export.</summary>
public sealed class TelemetryTests
{
    private const string ReadKey = "telemetry-read-key-0123456789";
    private const string AdminKey = "telemetry-admin-key-0123456789";

    [Fact]
    public async Task Telemetry_is_off_unless_configured()
    {
        await using var server = await TestServer.StartAsync();

        Assert.Null(server.App.Services.GetService<MeterProvider>());
        Assert.Null(server.App.Services.GetService<TracerProvider>());
        Assert.Equal(HttpStatusCode.NotFound, (await server.Client.GetAsync("/metrics")).StatusCode);
    }

    [Fact]
    public async Task Prometheus_scrapes_RavenLite_s_and_ASP_NET_Core_s_metrics_with_the_admin_scope()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--prometheus", "true",
            "--RavenLite:ApiKeys:0:Key=" + ReadKey, "--RavenLite:ApiKeys:1:Key=" + AdminKey, "--RavenLite:ApiKeys:1:Scope=Admin"]);
        async Task<HttpResponseMessage> GetAsync(string path, string key)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, path);
            request.Headers.Add("X-Api-Key", key);
            return await server.Client.SendAsync(request);
        }
        Assert.Equal(HttpStatusCode.OK, (await GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Item", ReadKey)).StatusCode);

        await JsonAssert.ErrorAsync(await GetAsync("/metrics", ReadKey), HttpStatusCode.Forbidden, ErrorCodes.ScopeMissing);
        var scrape = await GetAsync("/metrics", AdminKey);
        var text = await scrape.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, scrape.StatusCode);
        Assert.Contains("ravenlite_query_duration", text, StringComparison.Ordinal);
        Assert.Contains("ravenlite_cache_", text, StringComparison.Ordinal);
        Assert.Contains("http_server_request_duration", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_OTLP_endpoint_turns_on_metrics_and_traces_and_the_server_serves_without_a_collector()
    {
        // Nothing listens there: exporting fails in the background, and requests are not affected.
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--otlp-endpoint", "http://127.0.0.1:9"]);

        Assert.NotNull(server.App.Services.GetService<MeterProvider>());
        Assert.NotNull(server.App.Services.GetService<TracerProvider>());
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);
        Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--otlp-endpoint", "collector:4317"]));
    }
}
