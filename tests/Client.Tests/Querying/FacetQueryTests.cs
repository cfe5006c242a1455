using System.Globalization;
using System.Linq.Expressions;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// The typed facets (<c>AggregateBy</c>) against LINQ to Objects' GroupBy over the same generated products, for random
/// LINQ queries: strings, integers, decimals, doubles, dates, a string collection and a collection's items' member.
/// </summary>
public abstract class FacetQueryTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    public sealed class Line
    {
        public decimal Price { get; set; }
    }

    public sealed class Product
    {
        public string? Id { get; set; }
        public string? Brand { get; set; }
        public int Qty { get; set; }
        public decimal Price { get; set; }
        public double? Rating { get; set; }
        public DateTime At { get; set; }
        public List<string> Tags { get; set; } = [];
        public List<Line> Lines { get; set; } = [];
    }

    private static readonly string[] Brands = ["Acme", "Bolt", "Cog", "Dyna", "Echo"];
    private static readonly string[] TagNames = ["red", "green", "blue", "big", "new"];
    private static readonly DateTime Start = new(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private StoreFixture _fixture = null!;
    private RavenStore _store = null!;
    private List<Product> _products = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        _store = _fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        var random = new Random(31);
        _products = [.. Enumerable.Range(0, 300).Select(_ => new Product
        {
            Brand = random.Next(8) == 0 ? null : Brands[random.Next(Brands.Length)],
            Qty = random.Next(0, 30),
            Price = Math.Round((decimal)random.NextDouble() * 100m, random.Next(3)),
            Rating = random.Next(5) == 0 ? null : random.Next(0, 11) / 2.0,
            At = Start.AddHours(random.Next(0, 24 * 40)),
            Tags = [.. Enumerable.Range(0, random.Next(0, 4)).Select(_ => TagNames[random.Next(TagNames.Length)])],
            Lines = [.. Enumerable.Range(0, random.Next(0, 3)).Select(_ => new Line { Price = random.Next(1, 8) * 2.5m })],
        })];
        using var session = _store.OpenSession();
        foreach (var product in _products)
            session.Store(product);
        session.SaveChanges();
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    private sealed record Facet(string Name, Func<FacetQuery<Product>, FacetQuery<Product>> Ask, Func<List<Product>, string> Oracle);

    [Fact]
    public async Task AggregateBy_equals_linq_group_by_counts_for_random_queries()
    {
        using var session = _store.OpenSession();
        var random = new Random(3131);
        for (var round = 0; round < 25; round++)
        {
            var predicate = RandomPredicate(random);
            var matching = _products.Where(predicate.Compile()).ToList();
            var facets = RandomFacets(random);
            var query = session.Query<Product>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(predicate);
            var asked = facets.Aggregate(query.AggregateBy(x => x.Qty, top: 0), (current, facet) => facet.Ask(current));
            var results = round % 2 == 0 ? asked.Execute() : await asked.ExecuteAsync();

            Assert.Equal(facets.Count + 1, results.Count);
            Assert.Equal(matching.Count.ToString(CultureInfo.InvariantCulture), (results[0].RemainingCount + results[0].Missing).ToString(CultureInfo.InvariantCulture));
            for (var i = 0; i < facets.Count; i++)
                Assert.Equal($"{facets[i].Name}: {facets[i].Oracle(matching)}", $"{facets[i].Name}: {Show(results[i + 1])}");
        }
    }

    [Fact]
    public void AggregateByRanges_counts_from_each_boundary_inclusive_to_the_next_exclusive()
    {
        using var session = _store.OpenSession();
        var results = session.Query<Product>().WaitForNonStaleResults(TimeSpan.FromMinutes(2))
            .AggregateByRanges(x => x.Price, 10m, 50m)
            .AndAggregateByRanges(x => x.At, Start.AddDays(10))
            .Execute();

        Assert.Equal(["[* TO 10}", "[10 TO 50}", "[50 TO *]"], results[0].Values.Select(v => v.Value));
        Assert.Equal(
            [_products.Count(p => p.Price < 10), _products.Count(p => p.Price >= 10 && p.Price < 50), _products.Count(p => p.Price >= 50)],
            results[0].Values.Select(v => (int)v.Count));
        Assert.Equal([_products.Count(p => p.At < Start.AddDays(10)), _products.Count(p => p.At >= Start.AddDays(10))], results[1].Values.Select(v => (int)v.Count));
        Assert.Equal("At@time", results[1].Field);
    }

    [Fact]
    public void A_facet_after_Skip_or_a_field_without_values_is_refused()
    {
        using var session = _store.OpenSession();

        Assert.Throws<NotSupportedException>(() => session.Query<Product>().Skip(1).AggregateBy(x => x.Brand).Execute());
        Assert.Throws<ArgumentException>(() => session.Query<Product>().AggregateBy(new FacetRequest { Field = "Brand@ci" }).Execute());
    }

    private static string Show(FacetResult facet) =>
        string.Join(" ", facet.Values.Select(v => $"{v.Value}={v.Count}")) + $" | rest {facet.RemainingValues}/{facet.RemainingCount} missing {facet.Missing}";

    private static Expression<Func<Product, bool>> RandomPredicate(Random random)
    {
        var brand = Brands[random.Next(Brands.Length)];
        var tag = TagNames[random.Next(TagNames.Length)];
        var qty = random.Next(0, 30);
        var from = Start.AddDays(random.Next(0, 40));
        return random.Next(6) switch
        {
            0 => x => x.Qty >= 0,
            1 => x => x.Brand == brand,
            2 => x => x.Qty < qty,
            3 => x => x.Tags.Contains(tag),
            4 => x => x.At >= from || x.Brand == brand,
            _ => x => x.Qty >= qty && x.Price < 60m,
        };
    }

    private static List<Facet> RandomFacets(Random random)
    {
        var top = random.Next(3) == 0 ? (int?)null : random.Next(0, 5);
        var order = random.Next(2) == 0 ? FacetOrder.Count : FacetOrder.Value;
        var boundaries = Enumerable.Range(0, random.Next(1, 4)).Select(_ => (decimal)random.Next(0, 101)).Order().ToArray();
        var hours = Enumerable.Range(0, random.Next(1, 3)).Select(_ => Start.AddHours(random.Next(0, 24 * 40))).Order().ToArray();
        var all = new List<Facet>
        {
            new("Brand", q => q.AndAggregateBy(x => x.Brand, top, order),
                p => Values<string>(p, x => x.Brand is null ? [] : [x.Brand], top, order, string.CompareOrdinal, s => s)),
            new("Tags", q => q.AndAggregateBy(x => x.Tags, top, order),
                p => Values<string>(p, x => x.Tags, top, order, string.CompareOrdinal, s => s)),
            new("Price", q => q.AndAggregateBy(x => x.Price, top, order),
                p => Values<decimal>(p, x => [x.Price], top, order, decimal.Compare, Normal)),
            new("Rating", q => q.AndAggregateBy(x => x.Rating, top, order),
                p => Values<double>(p, x => x.Rating is { } r ? [r] : [], top, order, (a, b) => a.CompareTo(b), r => r.ToString("R", CultureInfo.InvariantCulture))),
            new("At", q => q.AndAggregateBy(x => x.At, top, order),
                p => Values<DateTime>(p, x => [x.At], top, order, DateTime.Compare, t => t.ToString("O", CultureInfo.InvariantCulture))),
            new("Lines.Price", q => q.AndAggregateBy(x => x.Lines.Select(l => l.Price), top, order),
                p => Values<decimal>(p, x => x.Lines.Select(l => l.Price), top, order, decimal.Compare, Normal)),
            new("Price ranges", q => q.AndAggregateByRanges(x => x.Price, boundaries), p => Ranges<decimal>(p, x => [x.Price], boundaries)),
            new("Lines.Price ranges", q => q.AndAggregateByRanges(x => x.Lines.Select(l => l.Price), boundaries), p => Ranges<decimal>(p, x => x.Lines.Select(l => l.Price), boundaries)),
            new("At ranges", q => q.AndAggregateByRanges(x => x.At, hours), p => Ranges<DateTime>(p, x => [x.At], hours)),
        };
        return [.. all.OrderBy(_ => random.Next()).Take(random.Next(1, 5))];
    }

    private static string Normal(decimal value) => (value / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture);

    private static string Values<TKey>(List<Product> matching, Func<Product, IEnumerable<TKey>> values, int? top, FacetOrder order,
        Comparison<TKey> compare, Func<TKey, string> format) where TKey : notnull
    {
        var perItem = matching.Select(p => values(p).Distinct().ToList()).ToList();
        var groups = perItem.SelectMany(list => list).GroupBy(v => v).Select(g => (g.Key, Count: (long)g.Count())).ToList();
        groups.Sort(order == FacetOrder.Value ? (a, b) => compare(a.Key, b.Key) : (a, b) => a.Count != b.Count ? b.Count.CompareTo(a.Count) : compare(a.Key, b.Key));
        var taken = groups.Take(top ?? int.MaxValue).ToList();
        var rest = groups.Skip(taken.Count).ToList();
        return string.Join(" ", taken.Select(g => $"{format(g.Key)}={g.Count}"))
            + $" | rest {rest.Count}/{rest.Sum(g => g.Count)} missing {perItem.Count(list => list.Count == 0)}";
    }

    private static string Ranges<TKey>(List<Product> matching, Func<Product, IEnumerable<TKey>> values, TKey[] boundaries) where TKey : IComparable<TKey>
    {
        var perItem = matching.Select(p => values(p).ToList()).ToList();
        var counts = new List<string>();
        for (var i = 0; i <= boundaries.Length; i++)
        {
            var index = i;
            bool In(TKey v) => (index == 0 || v.CompareTo(boundaries[index - 1]) >= 0) && (index == boundaries.Length || v.CompareTo(boundaries[index]) < 0);
            var from = index == 0 ? "*" : Bound(boundaries[index - 1]);
            var to = index == boundaries.Length ? "*" : Bound(boundaries[index]);
            counts.Add($"[{from} TO {to}{(index == boundaries.Length ? "]" : "}")}={perItem.Count(list => list.Any(In))}");
        }
        return string.Join(" ", counts) + $" | rest 0/0 missing {perItem.Count(list => list.Count == 0)}";
    }

    private static string Bound(object value) => value switch
    {
        DateTime time => time.ToString("O", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString()!,
    };
}

public sealed class EmbeddedFacetQueryTests() : FacetQueryTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteFacetQueryTests() : FacetQueryTests(async () => await RemoteStoreFixture.StartAsync());
