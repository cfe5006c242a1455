using System.Text;

namespace RavenLite.BenchmarkReport;

/// <summary>
/// Reads BenchmarkDotNet's <c>*-report-full.json</c> files from a results folder, writes the chart as SVG and
/// prints the same rows as a Markdown table on standard output (messages go to standard error); or, with
/// <c>--top-frames</c>, prints where the time under one frame went in a speedscope trace (<see cref="TraceSummary"/>).
/// </summary>
internal static class Program
{
    private const string Usage =
        "usage: dotnet run -c Release --project bench/RavenLite.BenchmarkReport -- [results-folder] [output.svg]\n" +
        "  results-folder  BenchmarkDotNet's results, with *-report-full.json (default BenchmarkDotNet.Artifacts/results)\n" +
        "  output.svg      the chart to write (default docs/benchmarks.svg)\n" +
        "   or: ... -- --top-frames <trace.speedscope.json> <root-frame-text> [count]\n" +
        "  prints the frames with the most self time in the stacks holding a frame whose name contains root-frame-text";

    /// <summary>Exit code 0 on success, 1 when there is nothing to draw, 2 for bad arguments.</summary>
    public static int Main(string[] args)
    {
        if (args is ["--top-frames", ..])
            return TopFrames(args[1..]);
        if (args.Length > 2 || args is ["-h" or "--help", ..])
        {
            Console.Error.WriteLine(Usage);
            return args.Length > 2 ? 2 : 0;
        }
        var folder = args.Length > 0 ? args[0] : Path.Combine("BenchmarkDotNet.Artifacts", "results");
        var output = args.Length > 1 ? args[1] : Path.Combine("docs", "benchmarks.svg");
        if (!Directory.Exists(folder))
        {
            Console.Error.WriteLine($"error: no results folder {folder}; run the benchmarks with --exporters fulljson first.\n{Usage}");
            return 2;
        }

        var results = ResultReader.ReadFolder(folder);
        foreach (var warning in results.Warnings)
            Console.Error.WriteLine($"warning: {warning}");
        if (!results.Rows.Any())
        {
            Console.Error.WriteLine($"error: no benchmark results with statistics in {folder} (*-report-full.json)");
            return 1;
        }

        var directory = Path.GetDirectoryName(Path.GetFullPath(output));
        if (directory is not null)
            Directory.CreateDirectory(directory);
        File.WriteAllText(output, SvgChart.Render(results, "RavenLite benchmarks"), new UTF8Encoding(false));
        Console.Out.Write(MarkdownTable.Render(results));
        Console.Error.WriteLine($"wrote {output}: {results.Rows.Count()} cases in {results.Groups.Count} classes from {results.Files.Count} reports");
        return 0;
    }

    private static int TopFrames(string[] args)
    {
        var count = 15;
        if (args is not ([_, _] or [_, _, _]) || (args.Length == 3 && (!int.TryParse(args[2], out count) || count < 1)))
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        if (!File.Exists(args[0]))
        {
            Console.Error.WriteLine($"error: no trace {args[0]}");
            return 2;
        }
        var summary = TraceSummary.Read(File.ReadAllText(args[0]), args[1]);
        if (summary.RootMilliseconds <= 0)
        {
            Console.Error.WriteLine($"error: no frame in {args[0]} contains \"{args[1]}\"");
            return 1;
        }
        Console.Out.Write(TraceSummaryTable.Render(summary, count));
        return 0;
    }
}
