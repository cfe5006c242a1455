using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;

namespace RavenLite.Benchmarks;

/// <summary>
/// <c>--profile</c> (run by <c>bash bench/reproduce.sh profile</c>): the warm seed query's class and the HTTP class
/// under BenchmarkDotNet's EventPipe profiler (CPU sampling, <see cref="EventPipeProfilerOnNet10"/>), which records
/// each benchmark's process and exports the trace as <c>.nettrace</c> and <c>.speedscope.json</c> into the artifacts
/// folder.
/// </summary>
internal static class ProfileRun
{
    /// <summary>Exact class globs: <c>*SeedQuery*</c> would also take the SQLite and LiteDB peers' classes.</summary>
    public static IReadOnlyList<string> Filters { get; } =
        ["RavenLite.Benchmarks.Query.SeedQueryBenchmarks.*", "RavenLite.Benchmarks.Http.SeedQueryHttpBenchmarks.*"];

    /// <summary>
    /// The suite's arguments for a profile run; <paramref name="rest"/> (a job, an artifacts folder) is passed on, and
    /// a <c>--filter</c> in it profiles those classes instead of <see cref="Filters"/>.
    /// </summary>
    public static string[] Arguments(IReadOnlyList<string> rest) => rest.Contains("--filter") ? [.. rest] : ["--filter", .. Filters, .. rest];

    /// <summary>The suite's configuration for <paramref name="arguments"/> (from <see cref="Arguments"/>), with the profiler.</summary>
    public static IConfig Config(string[] arguments) =>
        SuiteConfig.Create(arguments).AddDiagnoser(new EventPipeProfilerOnNet10(EventPipeProfile.CpuSampling));
}
