using BenchmarkDotNet.Reports;

namespace RavenLite.Benchmarks;

/// <summary>What went wrong in a run, one line per failed benchmark or invalid configuration.</summary>
internal static class RunOutcome
{
    public static List<string> Failures(IReadOnlyList<Summary> summaries)
    {
        var failures = new List<string>();
        foreach (var summary in summaries)
        {
            failures.AddRange(summary.ValidationErrors.Where(e => e.IsCritical).Select(e => $"{summary.Title}: {e.Message}"));
            failures.AddRange(summary.Reports
                .Where(report => !report.Success || report.ExecuteResults.Any(result => result.ExitCode is not 0))
                .Select(report => $"{report.BenchmarkCase.DisplayInfo} (see the log above)"));
        }
        return failures;
    }
}
