using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace RavenLite.Indexing;

/// <summary>
/// The names under which queries report to OpenTelemetry: a span per query on the <c>RavenLite</c>
/// <see cref="ActivitySource"/> (created only when a listener is attached) and the <see cref="Duration"/> histogram on
/// the database's <c>RavenLite</c> meter, tagged with <see cref="IndexTag"/>.
/// </summary>
public static class QueryTelemetry
{
    /// <summary>The activity source and meter name: <c>RavenLite</c>.</summary>
    public const string SourceName = "RavenLite";

    /// <summary>Histogram of query durations, in seconds (wait for non-stale results included).</summary>
    public const string Duration = "ravenlite.query.duration";

    /// <summary>Tag naming the index a measurement or span is about.</summary>
    public const string IndexTag = "ravenlite.index";

    /// <summary>The source of the per-query spans (<c>ravenlite.query</c>).</summary>
    internal static readonly ActivitySource Source = new(SourceName);

    internal static Histogram<double> CreateDuration(Meter meter) =>
        meter.CreateHistogram<double>(Duration, "s", "How long queries took, waiting for non-stale results included.");
}
