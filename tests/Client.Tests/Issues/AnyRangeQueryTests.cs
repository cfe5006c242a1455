using System.Linq.Expressions;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// <c>x.Lines.Any(l =&gt; l.Quantity &gt; 1 &amp;&amp; l.Quantity &lt;= 5)</c> was refused, though the docs promised that
/// conditions on one value of the item joined by <c>&amp;&amp;</c> are one range: one value in the range is one item
/// satisfying both. It is answered as that range (whole numbers, decimals, doubles; nullable item members), against
/// LINQ to Objects over every pair of bounds and operators; conditions that are not one range are still refused.
/// </summary>
public sealed class AnyRangeQueryTests
{
    public sealed class Line
    {
        public int Quantity { get; set; }
        public int? Maybe { get; set; }
        public decimal Price { get; set; }
    }

    public sealed class Row
    {
        public string? Id { get; set; }
        public List<int> Numbers { get; set; } = [];
        public List<double> Weights { get; set; } = [];
        public List<Line> Lines { get; set; } = [];
    }

    private static List<Row> Rows()
    {
        var random = new Random(8);
        return [.. Enumerable.Range(0, 150).Select(i => new Row
        {
            Id = $"rows/{i}",
            Numbers = [.. Enumerable.Range(0, random.Next(4)).Select(_ => random.Next(-3, 4))],
            Weights = [.. Enumerable.Range(0, random.Next(3)).Select(_ => random.Next(-6, 7) / 2.0)],
            Lines = [.. Enumerable.Range(0, random.Next(3)).Select(_ => new Line
            {
                Quantity = random.Next(-3, 4),
                Maybe = random.Next(3) == 0 ? null : random.Next(-3, 4),
                Price = random.Next(-6, 7) / 4m,
            })],
        })];
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Two_comparisons_of_one_value_of_an_item_are_one_range(bool remote)
    {
        var rows = Rows();
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 10_000 });
        using (var session = store.OpenSession())
        {
            foreach (var row in rows)
                session.Store(row);
            session.SaveChanges();
        }
        using var reader = store.OpenSession();
        var query = reader.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        var shapes = new List<Expression<Func<Row, bool>>>();
        for (var a = -2; a <= 2; a++)
        {
            for (var b = -2; b <= 2; b++)
            {
                var (low, high, price) = (a, b, b / 2m);
                shapes.Add(x => x.Numbers.Any(n => n > low && n <= high));
                shapes.Add(x => x.Numbers.Any(n => n >= low && n < high));
                shapes.Add(x => x.Numbers.Any(n => low < n && high >= n && n != 99 - 99 + 100));
                shapes.Add(x => x.Numbers.Any(n => n >= low && n >= high));
                shapes.Add(x => x.Numbers.Any(n => n == low && n <= high));
                shapes.Add(x => x.Weights.Any(w => w > low / 2.0 && w <= high));
                shapes.Add(x => x.Lines.Any(l => l.Quantity >= low && l.Quantity < high));
                shapes.Add(x => x.Lines.Any(l => l.Maybe > low && l.Maybe <= high));
                shapes.Add(x => x.Lines.Any(l => l.Price > low && l.Price < price));
            }
        }
        var answered = 0;
        foreach (var shape in shapes)
        {
            var expected = rows.Where(shape.Compile()).Select(x => x.Id).Order(StringComparer.Ordinal).ToList();
            List<string?> actual;
            try
            {
                actual = [.. query.Where(shape).ToList().Select(x => x.Id).Order(StringComparer.Ordinal)];
            }
            catch (NotSupportedException)
            {
                continue;
            }
            answered++;
            Assert.True(expected.SequenceEqual(actual), $"{shape}: expected {expected.Count}, got {actual.Count}");
        }
        // Every shape but the one with '!=' (a negation inside Any stays refused).
        Assert.Equal(shapes.Count - shapes.Count / 9, answered);
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Lines.Any(l => l.Quantity > 1 && l.Price < 2m)).ToList());
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Numbers.Any(n => n > 1 && (n < 3 || n > 5))).ToList());
    }
}
