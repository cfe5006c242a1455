namespace RavenLite.BenchmarkReport.Tests;

public sealed class LogAxisTests
{
    [Fact]
    public void The_axis_runs_from_a_decade_below_the_smallest_value_to_the_decade_above_the_largest()
    {
        var axis = new LogAxis([447_000, 2_500_000_000], left: 100, right: 600);

        Assert.Equal(1e5, axis.Min);
        Assert.Equal(1e10, axis.Max);
        Assert.Equal([1e5, 1e6, 1e7, 1e8, 1e9, 1e10], axis.MajorTicks);
        Assert.Equal(8 * 5, axis.MinorTicks.Count());
    }

    [Fact]
    public void Every_decade_gets_the_same_width()
    {
        var axis = new LogAxis([150, 9_000_000], left: 100, right: 600); // 100 ns .. 10 ms: 5 decades of 100 px

        Assert.Equal([100, 200, 300, 400, 500, 600], axis.MajorTicks.Select(tick => Math.Round(axis.X(tick), 6)));
        Assert.Equal(100 + 100 * Math.Log10(2), axis.X(200), precision: 6);
    }

    [Fact]
    public void A_value_on_a_power_of_ten_still_gets_a_bar_and_zero_sits_at_the_left_end()
    {
        var axis = new LogAxis([100, 1000, 0], left: 0, right: 300); // 10 ns .. 1 µs: 2 decades of 150 px

        Assert.Equal(10, axis.Min);
        Assert.Equal(150, axis.X(100));
        Assert.Equal(300, axis.X(1000));
        Assert.Equal(0, axis.X(0));
    }
}
