using BenchmarkDotNet.Running;
using RavenLite.Benchmarks.Scale;

namespace RavenLite.Benchmarks.Tests;

/// <summary>What a run picks: the million- and ten-million-document cases only when named.</summary>
public sealed class SuiteConfigTests
{
    [Fact]
    public void The_million_case_is_left_out_of_a_run_that_does_not_name_it()
    {
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(MillionScaleBenchmarks), SuiteConfig.Create(["--filter", "*"])).BenchmarksCases;

        Assert.Empty(cases);
    }

    [Fact]
    public void The_million_case_runs_when_the_command_line_names_it()
    {
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(MillionScaleBenchmarks), SuiteConfig.Create(["--filter", "*Million*"])).BenchmarksCases;

        Assert.Equal(7, cases.Length);
        Assert.All(cases, c => Assert.Equal(1_000_000, c.Parameters["Documents"]));
    }

    [Theory]
    [InlineData("*")]
    [InlineData("*Million*")]
    public void The_ten_million_case_is_left_out_of_a_run_that_does_not_name_it(string filter)
    {
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(TenMillionScaleBenchmarks), SuiteConfig.Create(["--filter", filter])).BenchmarksCases;

        Assert.Empty(cases);
    }

    [Fact]
    public void The_ten_million_case_runs_when_the_command_line_names_it()
    {
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(TenMillionScaleBenchmarks), SuiteConfig.Create(["--filter", "*TenMillion*"])).BenchmarksCases;

        Assert.Equal(7, cases.Length);
        Assert.All(cases, c => Assert.Equal(10_000_000, c.Parameters["Documents"]));
    }

    [Fact]
    public void Other_scale_cases_run_without_naming_anything()
    {
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(ScaleBenchmarks), SuiteConfig.Create(["--filter", "*"])).BenchmarksCases;

        Assert.Equal(14, cases.Length); // 7 reads x (1,000 and 100,000 documents)
    }
}
