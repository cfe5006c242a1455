namespace RavenLite.Client.Tests.Session;

/// <summary>
/// Issue 28: numbers a BSON double does not hold (<c>decimal.MaxValue</c>, <c>ulong.MaxValue</c>, 28-digit decimals)
/// were silently changed on write and then failed to deserialize. Each way a value reaches the database (Store,
/// BulkInsert, Patch, Increment; embedded straight to BSON, remote as JSON over HTTP PUT) now keeps it.
/// </summary>
public abstract partial class SessionTests
{
    [Fact]
    public void Extreme_numbers_stored_in_a_session_load_back_equal()
    {
        var stored = Extremes.Full();
        using (var session = Store.OpenSession())
        {
            session.Store(stored, "extremes/1");
            session.SaveChanges();
        }

        AssertSameNumbers(stored, Reload<Extremes>("extremes/1")!);
    }

    [Fact]
    public void Extreme_numbers_bulk_inserted_load_back_equal()
    {
        var stored = Enumerable.Range(0, 30).Select(i => WithNumber(i)).ToList();
        using (var bulk = Store.BulkInsert(batchSize: 7))
        {
            for (var i = 0; i < stored.Count; i++)
                bulk.Store(stored[i], "extremes/" + i);
        }

        for (var i = 0; i < stored.Count; i++)
            AssertSameNumbers(stored[i], Reload<Extremes>("extremes/" + i)!);
    }

    [Fact]
    public void Extreme_numbers_patched_in_and_incremented_load_back_equal()
    {
        using (var setup = Store.OpenSession())
        {
            setup.Store(new Extremes { Largest = 1m, Huge = 1 }, "extremes/p");
            setup.SaveChanges();
        }

        using (var session = Store.OpenSession())
        {
            session.Advanced.Patch<Extremes, decimal>("extremes/p", x => x.Largest, 0.1234567890123456789012345678m);
            session.Advanced.Patch<Extremes, ulong>("extremes/p", x => x.Huge, ulong.MaxValue);
            session.Advanced.Patch<Extremes, List<decimal>>("extremes/p", x => x.Decimals, [decimal.MinValue, 0.0000000000000000000000000001m]);
            session.Advanced.Increment<Extremes, decimal>("extremes/p", x => x.Precise, 1m);
            session.SaveChanges();
        }

        var patched = Reload<Extremes>("extremes/p")!;
        Assert.Equal(0.1234567890123456789012345678m, patched.Largest);
        Assert.Equal(ulong.MaxValue, patched.Huge);
        Assert.Equal([decimal.MinValue, 0.0000000000000000000000000001m], patched.Decimals);
        Assert.Equal(1234567890.123456789012345678m + 1m, patched.Precise);
    }

    private static Extremes WithNumber(int i)
    {
        var extremes = Extremes.Full();
        extremes.Largest = decimal.MaxValue - i;
        extremes.Huge = ulong.MaxValue - (ulong)i;
        return extremes;
    }

    private static void AssertSameNumbers(Extremes expected, Extremes actual)
    {
        Assert.Equal(expected.Largest, actual.Largest);
        Assert.Equal(expected.Precise, actual.Precise);
        Assert.Equal(expected.Decimals, actual.Decimals);
        Assert.Equal(expected.Huge, actual.Huge);
        Assert.Equal(expected.Smallest, actual.Smallest);
        Assert.Equal(BitConverter.DoubleToInt64Bits(expected.Tiny), BitConverter.DoubleToInt64Bits(actual.Tiny));
        Assert.Equal(expected.Doubles, actual.Doubles);
    }

    public sealed class Extremes
    {
        public string? Id { get; set; }

        public decimal Largest { get; set; } = decimal.MaxValue;

        public decimal Precise { get; set; } = 1234567890.123456789012345678m;

        // Filled by Full: a list the constructor fills would be added to, not replaced, by deserialization.
        public List<decimal> Decimals { get; set; } = [];

        public ulong Huge { get; set; } = ulong.MaxValue;

        public long Smallest { get; set; } = long.MinValue;

        public double Tiny { get; set; } = double.Epsilon;

        public List<double> Doubles { get; set; } = [];

        public static Extremes Full() => new()
        {
            Decimals = [decimal.MinValue, 0.0000000000000000000000000001m, -0.1234567890123456789012345678m, 12.99m],
            Doubles = [double.MaxValue, 1e300, 9007199254740993, 0.1 + 0.2],
        };
    }
}
