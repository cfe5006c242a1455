using RavenLite.Benchmarks.Scale;

namespace RavenLite.Benchmarks.Tests.Scale;

/// <summary>The <c>--scale</c> mode's arguments and the memory figures it reports.</summary>
public sealed class ScaleReportTests
{
    private const string Status = """
        Name:	RavenLite.Bench
        VmPeak:	274278208 kB
        VmRSS:	  1572864 kB
        RssAnon:	   524288 kB
        RssFile:	  1046528 kB
        RssShmem:	     2048 kB
        Threads:	24
        """;

    [Fact]
    public void Scale_without_cache_limits_measures_the_default_cache_and_256_MiB()
    {
        var options = ScaleReportOptions.Parse(["10000000"]);

        Assert.Equal(10_000_000, options.Documents);
        Assert.Equal([null, 256L], options.CacheSizesMb);
    }

    [Fact]
    public void Scale_measures_each_cache_limit_named_in_order()
    {
        var options = ScaleReportOptions.Parse(["1000000", "--cache-size-mb", "64", "--cache-size-mb", "default"]);

        Assert.Equal([64L, null], options.CacheSizesMb);
    }

    [Theory]
    [InlineData("")]
    [InlineData("ten")]
    [InlineData("999")]
    [InlineData("1000000 --cache-size-mb")]
    [InlineData("1000000 --cache-size-mb 0")]
    [InlineData("1000000 --cache 64")]
    public void Scale_with_wrong_arguments_throws_with_the_usage(string commandLine)
    {
        var args = commandLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);

        var error = Assert.Throws<ArgumentException>(() => ScaleReportOptions.Parse(args));

        Assert.StartsWith(ScaleReportOptions.Usage, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Scale_with_wrong_arguments_exits_with_2()
    {
        Assert.Equal(2, ScaleReport.Run(["many"]));
    }

    [Fact]
    public void Memory_sample_reads_anonymous_and_file_pages_apart()
    {
        var sample = MemorySample.Parse(Status);

        Assert.Equal(new MemorySample(1_572_864, 524_288, 1_046_528, 2_048), sample);
        Assert.Equal("RSS now: VmRSS 1536 MiB = RssAnon 512 MiB + RssFile 1022 MiB + RssShmem 2 MiB", sample.Format("now"));
    }

    [Fact]
    public void Memory_sample_without_a_field_throws()
    {
        Assert.Throws<FormatException>(() => MemorySample.Parse("VmRSS:\t1 kB\nRssAnon:\t1 kB\n"));
    }

    [Fact]
    public void Memory_sample_of_this_process_is_consistent()
    {
        var sample = MemorySample.Current();

        Assert.True(sample.RssAnonKb > 0);
        Assert.Equal(sample.VmRssKb, sample.RssAnonKb + sample.RssFileKb + sample.RssShmemKb);
    }
}
