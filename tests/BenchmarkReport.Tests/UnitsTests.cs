namespace RavenLite.BenchmarkReport.Tests;

public sealed class UnitsTests
{
    [Theory]
    [InlineData(447_000, "447 µs")]
    [InlineData(1_234_567, "1.23 ms")]
    [InlineData(16_990_000, "17 ms")]
    [InlineData(614.1, "614 ns")]
    [InlineData(1.372, "1.37 ns")]
    [InlineData(999.7, "1 µs")] // rounds up into the next unit, not "1000 ns"
    [InlineData(999_600_000, "1 s")]
    [InlineData(1_200_262_441, "1.2 s")]
    [InlineData(12_500_000_000, "12.5 s")]
    [InlineData(0, "0 ns")]
    public void Times_get_three_significant_digits_in_the_best_unit(double nanoseconds, string expected) =>
        Assert.Equal(expected, Units.Time(nanoseconds));

    [Theory]
    [InlineData(80L, "80 B")]
    [InlineData(8325L, "8.13 KB")]
    [InlineData(8_151_388L, "7.77 MB")]
    [InlineData(null, "-")]
    public void Sizes_count_1024_bytes_to_the_kilobyte_like_BenchmarkDotNet(long? bytes, string expected) =>
        Assert.Equal(expected, Units.Size(bytes));
}
