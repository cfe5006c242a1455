using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using RavenLite.Benchmarks.Scale;

namespace RavenLite.Benchmarks;

/// <summary>The suite's configuration: the full-mode job, the JSON results the chart reads, the million left out.</summary>
internal static class SuiteConfig
{
    /// <summary>
    /// The full mode, used unless the command line names a job (a <c>--job</c> on the command line, such as <c>short</c>, replaces it): three warm-up and
    /// ten measured iterations, enough for the 2-core machines this runs on without taking an hour.
    /// </summary>
    public static Job FullMode { get; } = Job.Default.WithWarmupCount(3).WithIterationCount(10).AsDefault();

    /// <summary>
    /// True when this process runs BenchmarkDotNet's dry job: the command line asked for it (<c>--job dry</c>), or
    /// BenchmarkDotNet started this process for a dry case (it passes <c>--job Dry</c>). Only for work a benchmark
    /// may shrink where nothing is measured (see <see cref="Peers.LiteDbBulkInsertBenchmarks"/>).
    /// </summary>
    public static bool DryJob { get; } = IsDryJob(Environment.GetCommandLineArgs());

    /// <summary>Whether <paramref name="args"/> name the dry job (<c>--job dry</c>, <c>-j dry</c>, <c>--job=dry</c>, any case).</summary>
    public static bool IsDryJob(IReadOnlyList<string> args)
    {
        for (var i = 0; i < args.Count; i++)
        {
            var job = args[i] is "--job" or "-j" && i + 1 < args.Count ? args[i + 1]
                : args[i].StartsWith("--job=", StringComparison.Ordinal) ? args[i]["--job=".Length..] : null;
            if (string.Equals(job, "dry", StringComparison.OrdinalIgnoreCase))
                return true;
        }
        return false;
    }

    public static IConfig Create(string[] args)
    {
        // BenchmarkDotNet's default 2-minute limit on building the generated project is too short on a loaded 2-core machine.
        IConfig config = DefaultConfig.Instance.AddExporter(JsonExporter.Full).WithBuildTimeout(TimeSpan.FromMinutes(10));
        // BenchmarkDotNet prefers a configured default job over --job, so the full mode is added only without one.
        if (!args.Any(arg => arg is "--job" or "-j" || arg.StartsWith("--job=", StringComparison.Ordinal)))
            config = config.AddJob(FullMode);
        // The million-document case runs only when the command line asks for it by name.
        if (!args.Any(arg => arg.Contains(MillionScaleBenchmarks.Category, StringComparison.OrdinalIgnoreCase)))
            config = config.AddFilter(new SimpleFilter(benchmark => !benchmark.Descriptor.Categories.Contains(MillionScaleBenchmarks.Category)));
        // Ten million likewise, named by its own category: "*Million*" alone (bench/reproduce.sh) must not build 6 GB.
        if (!args.Any(arg => arg.Contains(TenMillionScaleBenchmarks.Category, StringComparison.OrdinalIgnoreCase)))
            config = config.AddFilter(new SimpleFilter(benchmark => !benchmark.Descriptor.Categories.Contains(TenMillionScaleBenchmarks.Category)));
        return config;
    }
}
