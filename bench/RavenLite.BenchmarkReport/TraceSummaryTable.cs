using System.Globalization;
using System.Text;

namespace RavenLite.BenchmarkReport;

/// <summary>A <see cref="TraceSummary"/> as a Markdown table: the frames with the most self time, as shares of the root's time.</summary>
internal static class TraceSummaryTable
{
    public static string Render(TraceSummary summary, int count)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture,
            $"Stacks holding \"{summary.Root}\": {summary.RootMilliseconds:F1} ms of samples; top {Math.Min(count, summary.Frames.Count)} frames by self time");
        text.AppendLine();
        text.AppendLine("| self | total | frame |");
        text.AppendLine("|---:|---:|---|");
        foreach (var frame in summary.Frames.Take(count))
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {Share(frame.SelfMilliseconds)} | {Share(frame.TotalMilliseconds)} | `{frame.Name.Replace("|", "\\|", StringComparison.Ordinal)}` |");
        }
        return text.ToString();

        string Share(double milliseconds) =>
            (100 * milliseconds / summary.RootMilliseconds).ToString("F1", CultureInfo.InvariantCulture) + "%";
    }
}
