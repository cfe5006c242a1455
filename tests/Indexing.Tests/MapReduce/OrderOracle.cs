using System.Globalization;
using System.Text;
using System.Text.Json;

namespace RavenLite.Indexing.Tests.MapReduce;

/// <summary>
/// Random orders (customer, lines of price and quantity) and what <c>Orders/TotalsByCustomer</c> must hold for them,
/// computed with LINQ-to-Objects. Some orders have a price that is a string: they must be left out entirely.
/// </summary>
internal sealed class OrderOracle(int seed, int keys = 300, int customers = 25)
{
    private readonly Random _random = new(seed);

    public Dictionary<string, Order> Orders { get; } = new(StringComparer.Ordinal);

    public sealed record Order(string Customer, IReadOnlyList<(decimal Price, long Quantity)> Lines, bool Bad)
    {
        public string Json()
        {
            var lines = string.Join(", ", Lines.Select((line, i) => Bad && i == 0
                ? $$"""{"Price": "oops", "Quantity": {{line.Quantity}}}"""
                : $$"""{"Price": {{line.Price.ToString(CultureInfo.InvariantCulture)}}, "Quantity": {{line.Quantity}}}"""));
            return $$"""{"Customer": "{{Customer}}", "Lines": [{{lines}}]}""";
        }
    }

    /// <summary>The next change: a key and the order put there, or null for a delete.</summary>
    public (string Key, Order? Order) Next()
    {
        var key = $"orders/{_random.Next(keys)}";
        if (Orders.ContainsKey(key) && _random.Next(5) == 0)
        {
            Orders.Remove(key);
            return (key, null);
        }
        var lines = Enumerable.Range(0, _random.Next(4))
            .Select(_ => (Math.Round((decimal)_random.NextDouble() * 1000m - 100m, 2), (long)_random.Next(1, 10)))
            .ToList();
        var order = new Order($"customers/{_random.Next(customers)}", lines, Bad: lines.Count > 0 && _random.Next(40) == 0);
        Orders[key] = order;
        return (key, order);
    }

    public sealed record Totals(long Lines, decimal Total, decimal? Cheapest, decimal? Dearest, decimal? AveragePrice, long Items);

    public Dictionary<string, Totals> Expected() =>
        Orders.Values.Where(order => !order.Bad)
            .SelectMany(order => order.Lines.Select(line => (order.Customer, line.Price, line.Quantity)))
            .GroupBy(line => line.Customer)
            .ToDictionary(g => g.Key, g => new Totals(g.Count(), g.Sum(l => l.Price), g.Min(l => l.Price), g.Max(l => l.Price),
                g.Average(l => l.Price), g.Sum(l => l.Quantity)));

    public static Totals Actual(JsonElement result) => new(
        result.GetProperty("Lines").GetInt64(), result.GetProperty("Total").GetDecimal(), result.GetProperty("Cheapest").GetDecimal(),
        result.GetProperty("Dearest").GetDecimal(), result.GetProperty("AveragePrice").GetDecimal(), result.GetProperty("Items").GetInt64());

    /// <summary>Asserts the results equal the oracle's, group by group (Average to 20 decimal places: decimal division rounds).</summary>
    public void AssertMatches(IReadOnlyList<JsonElement> results)
    {
        var expected = Expected();
        var actual = results.ToDictionary(r => r.GetProperty("Customer").GetString()!, Actual);
        Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), actual.Keys.Order(StringComparer.Ordinal));
        var wrong = new StringBuilder();
        foreach (var (customer, totals) in expected)
        {
            var got = actual[customer];
            if (got with { AveragePrice = null } != totals with { AveragePrice = null }
                || Math.Abs(got.AveragePrice!.Value - totals.AveragePrice!.Value) > 1e-20m)
                wrong.AppendLine(CultureInfo.InvariantCulture, $"{customer}: expected {totals}, got {got}");
        }
        Assert.True(wrong.Length == 0, wrong.ToString());
    }
}
