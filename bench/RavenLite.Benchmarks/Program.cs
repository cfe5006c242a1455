using BenchmarkDotNet.Running;

namespace RavenLite.Benchmarks;

/// <summary>
/// Runs the benchmarks chosen on the command line (<c>--filter '*'</c> for all of them), or, with
/// <c>--cache-size-check</c>, compares the cache's size estimate with measured memory.
/// </summary>
public static class Program
{
    public static void Main(string[] args)
    {
        if (args is ["--cache-size-check"])
            Cache.CacheSizeEstimateCheck.Run();
        else
            BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
    }
}
