using BenchmarkDotNet.Running;

namespace RavenLite.Benchmarks;

/// <summary>
/// Runs the benchmarks chosen on the command line (<c>--filter '*'</c> for all of them; <c>--job short</c> for the
/// quick mode, <c>--job dry</c> to run each once), or, with <c>--cache-size-check</c>, compares the cache's size
/// estimate with measured memory, or, with <c>--profile</c>, runs the seed query and HTTP classes under the EventPipe
/// profiler (<see cref="ProfileRun"/>), or, with <c>--serve-prebuilt &lt;body-file&gt; &lt;port&gt;</c>, serves that file as the
/// prebuilt-bytes floor endpoint until stopped (for <c>bench/http-load.sh</c>), or, with <c>--scale &lt;documents&gt;</c>,
/// builds or reuses a scale dataset and reports its build time, disk size, cold reads and memory
/// (<see cref="Scale.ScaleReport"/>; <c>--scale-measure</c> is its child process). Exits with 1 when any benchmark
/// failed, so a broken benchmark fails CI.
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
        if (args is ["--serve-prebuilt", ..])
            return ServePrebuilt(args[1..]);
        if (args is ["--scale", ..])
            return Scale.ScaleReport.Run(args[1..]);
        if (args is ["--scale-measure", _, _])
            return Scale.ScaleReport.Measure(args[1..]);
        var config = SuiteConfig.Create(args);
        if (args is ["--profile", ..])
        {
            args = ProfileRun.Arguments(args[1..]);
            config = ProfileRun.Config(args);
        }
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, config).ToList();
        var failures = RunOutcome.Failures(summaries);
        foreach (var failure in failures)
            Console.Error.WriteLine($"FAILED: {failure}");
        return failures.Count == 0 ? 0 : 1;
    }

    private static int ServePrebuilt(string[] args)
    {
        if (args is not [var bodyFile, var portText] || !int.TryParse(portText, out var port) || port is < 0 or > 65535)
        {
            Console.Error.WriteLine("usage: --serve-prebuilt <body-file> <port>  (port 0 picks a free one)");
            return 2;
        }
        Http.PrebuiltResponseServer.ServeUntilStoppedAsync(bodyFile, port).GetAwaiter().GetResult();
        return 0;
    }
}
