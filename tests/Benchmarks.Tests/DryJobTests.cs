namespace RavenLite.Benchmarks.Tests;

/// <summary>How a benchmark knows it runs in the dry job, where it may shrink unmeasured work.</summary>
public sealed class DryJobTests
{
    [Theory]
    [InlineData("--filter", "*", "--job", "dry")] // the command line CI gives the suite
    [InlineData("--benchmarkName", "X.Y", "--job", "Dry", "--benchmarkId", "3")] // what BenchmarkDotNet gives a case's process
    [InlineData("-j", "dry")]
    [InlineData("--job=dry")]
    public void The_dry_job_is_seen(params string[] args) => Assert.True(SuiteConfig.IsDryJob(args));

    [Theory]
    [InlineData("--filter", "*", "--job", "short")]
    [InlineData("--filter", "*dry*")]
    [InlineData("--job")]
    [InlineData]
    public void Other_runs_are_not_dry(params string[] args) => Assert.False(SuiteConfig.IsDryJob(args));
}
