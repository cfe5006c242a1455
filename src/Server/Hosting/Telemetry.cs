using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace RavenLite.Server.Hosting;

/// <summary>
/// OpenTelemetry for operators, off unless configured: the <c>RavenLite</c> meter (document cache, queries) and activity
/// source (requests, queries), with ASP.NET Core's and Kestrel's own, exported over OTLP (<c>--otlp-endpoint</c>) and/or
/// as a Prometheus scrape endpoint at <c>/metrics</c> (<c>--prometheus</c>), which needs the admin scope when keys are
/// configured. docs/operations.md lists the metric names.
/// </summary>
internal static class Telemetry
{
    /// <summary>The meters exported: RavenLite's, then ASP.NET Core's.</summary>
    public static readonly string[] Meters =
    [
        "RavenLite", "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Routing",
        "Microsoft.AspNetCore.Diagnostics", "Microsoft.AspNetCore.RateLimiting",
    ];

    /// <summary>The activity sources traced: RavenLite's, then ASP.NET Core's.</summary>
    public static readonly string[] Sources = ["RavenLite", "Microsoft.AspNetCore"];

    /// <summary>The path of the Prometheus scrape endpoint.</summary>
    public const string PrometheusPath = "/metrics";

    /// <summary>Registers OpenTelemetry when <paramref name="options"/> ask for an exporter; otherwise nothing.</summary>
    public static void AddServices(IServiceCollection services, RavenLiteServerOptions options)
    {
        var otlp = string.IsNullOrWhiteSpace(options.OtlpEndpoint) ? null : new Uri(options.OtlpEndpoint);
        if (otlp is null && !options.Prometheus)
            return;
        var telemetry = services.AddOpenTelemetry().ConfigureResource(resource => resource.AddService("ravenlite"));
        telemetry.WithMetrics(metrics =>
        {
            metrics.AddMeter(Meters);
            if (options.Prometheus)
                metrics.AddPrometheusExporter();
            if (otlp is not null)
                metrics.AddOtlpExporter(exporter => exporter.Endpoint = otlp);
        });
        if (otlp is not null)
            telemetry.WithTracing(tracing => tracing.AddSource(Sources).AddOtlpExporter(exporter => exporter.Endpoint = otlp));
    }

    /// <summary>Maps <c>/metrics</c> when the Prometheus endpoint is on.</summary>
    public static void Map(WebApplication app, RavenLiteServerOptions options)
    {
        if (options.Prometheus)
            app.MapPrometheusScrapingEndpoint(PrometheusPath);
    }
}
