using System.Reflection;
using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Tests;

/// <summary>Rules every benchmark class keeps, checked over the whole suite.</summary>
public sealed class BenchmarkClassTests
{
    private static readonly Type[] s_benchmarkClasses = [.. typeof(SuiteConfig).Assembly.GetTypes()
        .Where(t => t is { IsClass: true, IsAbstract: false, IsPublic: true })
        .Where(t => t.GetMethods().Any(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null))];

    [Fact]
    public void The_suite_has_its_areas()
    {
        var areas = s_benchmarkClasses.Select(t => t.Namespace!.Split('.')[^1]).ToHashSet();

        Assert.Superset(new HashSet<string> { "Query", "Documents", "Scale", "Http", "Peers", "Serialization", "Client", "Backups" }, areas);
    }

    [Fact]
    public void Every_benchmark_class_measures_memory()
    {
        var without = s_benchmarkClasses.Where(t => t.GetCustomAttribute<MemoryDiagnoserAttribute>(inherit: true) is null).Select(t => t.Name);

        Assert.Empty(without);
    }

    [Fact]
    public void No_benchmark_class_pins_its_own_job()
    {
        // A job attribute on a class would run beside the command line's --job (short, dry) instead of obeying it.
        var pinned = s_benchmarkClasses.Where(t => t.GetCustomAttributes<JobConfigBaseAttribute>(inherit: true).Any()).Select(t => t.Name);

        Assert.Empty(pinned);
    }
}
