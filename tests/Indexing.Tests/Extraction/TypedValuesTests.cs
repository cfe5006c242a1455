using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Tests.Extraction;

public sealed class TypedValuesTests
{
    private static IEnumerable<decimal> Decimals(int seed)
    {
        yield return 0m;
        yield return decimal.MaxValue;
        yield return decimal.MinValue;
        yield return 0.0000000000000000000000000001m;
        yield return -0.0000000000000000000000000001m;
        yield return 1m;
        yield return 1.0m;
        yield return 10m;
        yield return 0.5m;
        yield return -0.5m;
        yield return -0.51m;
        yield return 1200m;
        var random = new Random(seed);
        for (var i = 0; i < 2000; i++)
        {
            var scale = (byte)random.Next(0, 29);
            yield return new decimal(random.Next(), random.Next(), random.Next(), random.Next(2) == 0, scale);
        }
    }

    [Fact]
    public void Encoded_decimals_sort_ordinally_as_their_values_and_decode_to_the_same_value()
    {
        var values = Decimals(28).ToList();
        foreach (var value in values)
            Assert.Equal(value, TypedValues.DecodeDecimal(TypedValues.EncodeDecimal(value)));
        var byValue = values.OrderBy(v => v).Select(TypedValues.EncodeDecimal).ToList();
        var byText = values.Select(TypedValues.EncodeDecimal).Order(StringComparer.Ordinal).ToList();
        Assert.Equal(byValue, byText);
    }

    [Fact]
    public void Equal_decimals_with_other_trailing_zeros_are_one_term()
    {
        Assert.Equal(TypedValues.EncodeDecimal(1.5m), TypedValues.EncodeDecimal(1.50000m));
        Assert.Equal(TypedValues.EncodeDecimal(-100m), TypedValues.EncodeDecimal(-100.00m));
        Assert.NotEqual(TypedValues.EncodeDecimal(1.5m), TypedValues.EncodeDecimal(15m));
    }

    [Theory]
    [InlineData("2020-01-01T08:00:00Z")]
    [InlineData("2020-01-01T08:00:00.0000000Z")]
    [InlineData("2020-01-01T08:00:00.000Z")]
    [InlineData("2020-01-01T10:00:00+02:00")]
    [InlineData("2020-01-01T03:30:00-04:30")]
    [InlineData("2020-01-01T08:00:00")]
    public void Date_times_of_one_instant_read_as_the_same_ticks(string text)
    {
        Assert.True(TypedValues.TryGetInstant(text, out var ticks));
        Assert.Equal(new DateTime(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc).Ticks, ticks);
    }

    [Theory]
    [InlineData("2020-01-01")]
    [InlineData("hello world, this is not a date")]
    [InlineData("2020-13-01T08:00:00Z")]
    public void Other_strings_are_not_instants(string text) => Assert.False(TypedValues.TryGetInstant(text, out _));

    [Theory]
    [InlineData("1E-30", false)]
    [InlineData("0.0", true)]
    [InlineData("-0", true)]
    [InlineData("1e300", false)]
    [InlineData("79228162514264337593543950335", true)]
    [InlineData("12.50", true)]
    public void Only_numbers_a_decimal_holds_exactly_are_decimals(string text, bool exact) =>
        Assert.Equal(exact, TypedValues.TryGetDecimal(text, out _));
}
