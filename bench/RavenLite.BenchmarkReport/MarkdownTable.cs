using System.Text;

namespace RavenLite.BenchmarkReport;

/// <summary>The chart's rows as a Markdown table, for pasting into the docs.</summary>
internal static class MarkdownTable
{
    /// <summary>One line per case: class, method (its description), parameters, mean and allocation.</summary>
    public static string Render(ResultSet results)
    {
        var text = new StringBuilder();
        text.Append("| Class | Method | Params | Mean | Allocated |\n");
        text.Append("|---|---|---|---:|---:|\n");
        foreach (var group in results.Groups)
            foreach (var row in group.Rows)
                text.Append($"| {Cell(group.Heading)} | {Cell(row.Title)} | {Cell(row.Parameters)} | {Units.Time(row.MeanNs)} | {Units.Size(row.AllocatedBytes)} |\n");
        return text.ToString();
    }

    // A "|" inside a cell would end it.
    private static string Cell(string value) => value.Replace("|", "\\|", StringComparison.Ordinal);
}
