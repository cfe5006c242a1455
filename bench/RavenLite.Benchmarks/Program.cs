using BenchmarkDotNet.Running;

namespace RavenLite.Benchmarks;

/// <summary>
/// Runs the benchmarks chosen on the command line (<c>--filter '*'</c> for all of them; <c>--job short</c> for the
/// quick mode, <c>--job dry</c> to run each once), or, with <c>--cache-size-check</c>, compares the cache's size
/// estimate with measured memory. Exits with 1 when any benchmark failed, so a broken benchmark fails CI.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args is ["--cache-size-check"])
        {
            Cache.CacheSizeEstimateCheck.Run();
            return 0;
        }
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, SuiteConfig.Create(args)).ToList();
        var failures = RunOutcome.Failures(summaries);
        foreach (var failure in failures)
            Console.Error.WriteLine($"FAILED: {failure}");
        return failures.Count == 0 ? 0 : 1;
    }
}
