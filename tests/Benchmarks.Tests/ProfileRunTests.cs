using System.Reflection;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using RavenLite.Benchmarks.Http;
using RavenLite.Benchmarks.Query;

namespace RavenLite.Benchmarks.Tests;

/// <summary>What <c>--profile</c> (<c>bash bench/reproduce.sh profile</c>) hands BenchmarkDotNet's own command-line parser.</summary>
public sealed class ProfileRunTests
{
    private static readonly string[] s_arguments = ProfileRun.Arguments(["--job", "short"]);

    [Fact]
    public void Profile_run_selects_the_seed_query_and_HTTP_classes_and_no_peer()
    {
        var config = Parse();
        var selected = typeof(SuiteConfig).Assembly.GetTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false, IsPublic: true })
            .Where(t => t.GetMethods().Any(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null))
            .Where(t => BenchmarkConverter.TypeToBenchmarks(t, config).BenchmarksCases.Length > 0)
            .ToHashSet();

        Assert.Equal(new HashSet<Type> { typeof(SeedQueryBenchmarks), typeof(SeedQueryHttpBenchmarks) }, selected);
    }

    [Fact]
    public void Profile_run_takes_the_warm_query_and_every_HTTP_case()
    {
        var config = Parse();

        var query = BenchmarkConverter.TypeToBenchmarks(typeof(SeedQueryBenchmarks), config).BenchmarksCases;
        var http = BenchmarkConverter.TypeToBenchmarks(typeof(SeedQueryHttpBenchmarks), config).BenchmarksCases;

        Assert.Contains(query, c => c.Descriptor.WorkloadMethod.Name == nameof(SeedQueryBenchmarks.WarmCache));
        Assert.Equal(typeof(SeedQueryHttpBenchmarks).GetMethods().Count(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null), http.Length);
    }

    [Fact]
    public void Profile_run_attaches_the_EventPipe_profiler_and_keeps_the_job_asked_for()
    {
        var config = ProfileRun.Config(s_arguments);

        Assert.Contains(config.GetDiagnosers(), d => d is EventPipeProfilerOnNet10);
        Assert.DoesNotContain(SuiteConfig.FullMode, config.GetJobs());
    }

    [Fact]
    public void Profile_run_with_a_filter_profiles_the_classes_it_names_instead()
    {
        var arguments = ProfileRun.Arguments(["--filter", "*Documents.BulkInsertBenchmarks*", "--job", "short"]);
        var config = Parse(arguments);

        Assert.NotEmpty(BenchmarkConverter.TypeToBenchmarks(typeof(Documents.BulkInsertBenchmarks), config).BenchmarksCases);
        Assert.Empty(BenchmarkConverter.TypeToBenchmarks(typeof(SeedQueryBenchmarks), config).BenchmarksCases);
    }

    private static BenchmarkDotNet.Configs.IConfig Parse() => Parse(s_arguments);

    private static BenchmarkDotNet.Configs.IConfig Parse(string[] arguments)
    {
        // The classes are picked by the parsed --filter; BenchmarkSwitcher adds the parsed config to ProfileRun.Config.
        var (ok, config, _) = ConfigParser.Parse(arguments, NullLogger.Instance, ProfileRun.Config(arguments));
        Assert.True(ok, "BenchmarkDotNet refused the profile run's arguments: " + string.Join(' ', arguments));
        return config;
    }
}
