using System.Globalization;
using System.Text.RegularExpressions;

namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>
/// A strict reader of the <c>Server-Timing</c> header (W3C Server Timing): comma-separated metrics, each a token
/// name with optional <c>dur=</c> (a number of milliseconds) and <c>desc=</c> (a token or a quoted string).
/// Anything else fails the test.
/// </summary>
internal static partial class ServerTimingHeader
{
    public sealed record Metric(string Name, double? Duration, string? Description);

    public static IReadOnlyList<Metric> Parse(HttpResponseMessage response)
    {
        Assert.True(response.Headers.TryGetValues("Server-Timing", out var values), "no Server-Timing header");
        var metrics = new List<Metric>();
        foreach (var part in string.Join(",", values).Split(','))
        {
            var match = MetricPattern().Match(part.Trim());
            Assert.True(match.Success, $"not a Server-Timing metric: '{part}'");
            double? duration = match.Groups["dur"].Success ? double.Parse(match.Groups["dur"].Value, CultureInfo.InvariantCulture) : null;
            var description = match.Groups["qdesc"].Success ? match.Groups["qdesc"].Value : match.Groups["desc"].Success ? match.Groups["desc"].Value : null;
            metrics.Add(new Metric(match.Groups["name"].Value, duration, description));
        }
        return metrics;
    }

    [GeneratedRegex("""^(?<name>[!#$%&'*+\-.^_`|~0-9A-Za-z]+)(;dur=(?<dur>[0-9]+(\.[0-9]+)?)|;desc=("(?<qdesc>[^"\\]*)"|(?<desc>[!#$%&'*+\-.^_`|~0-9A-Za-z]+)))*$""")]
    private static partial Regex MetricPattern();
}
