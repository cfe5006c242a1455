namespace RavenLite.Benchmarks.Tests.Issues;

/// <summary>
/// <c>--job dry</c> and <c>--job short</c> were ignored: BenchmarkDotNet prefers a configured default job over the
/// command line's, so every run, the CI smoke test included, ran the full mode (7.7 minutes instead of 1.5).
/// </summary>
public sealed class JobOnTheCommandLineTests
{
    [Theory]
    [InlineData("--job", "short")]
    [InlineData("--job", "dry")]
    [InlineData("-j", "short")]
    public void A_job_on_the_command_line_replaces_the_full_mode(string option, string job)
    {
        var config = SuiteConfig.Create(["--filter", "*", option, job]);

        Assert.DoesNotContain(SuiteConfig.FullMode, config.GetJobs());
    }

    [Fact]
    public void Without_a_job_the_full_mode_runs()
    {
        var config = SuiteConfig.Create(["--filter", "*"]);

        Assert.Contains(SuiteConfig.FullMode, config.GetJobs());
    }
}
