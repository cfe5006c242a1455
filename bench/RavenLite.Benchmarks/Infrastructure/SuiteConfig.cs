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
        return config;
    }
}
