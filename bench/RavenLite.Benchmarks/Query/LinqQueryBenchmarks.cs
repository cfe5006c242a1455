using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// Queries written in C# (issue 28): the first collection query on a field, which makes an auto index over 100,000
/// orders and answers once it has caught up; Count, Sum and Max over those orders from the index against materializing
/// them with Stream(); a repeated LINQ query's translation alone; and the seed query through an auto index
/// (<c>dynamic/Item</c>, <c>cartId:666</c>, 1,024 results) next to the built-in index's <c>Tag:Item</c>.
/// </summary>
[MemoryDiagnoser]
public class LinqQueryBenchmarks : IDisposable
{
    public const int Orders = 100_000;
    private static readonly IndexQuery s_builtIn = new() { Query = "Tag:Item", PageSize = 1024 };
    private static readonly IndexQuery s_auto = new() { Query = "cartId:666", PageSize = 1024 };
    private BenchmarkDatabase _orders = null!;
    private RavenStore _store = null!;
    private DocumentSession _session = null!;
    private SeedDatabases _seed = null!;
    private readonly string _customer = "customer/7";
    private int _autoIndexRun;

    public sealed class Order
    {
        public string? Id { get; set; }
        public string Customer { get; set; } = "";
        public decimal Total { get; set; }
        public int Quantity { get; set; }
        public double Weight { get; set; }
        public int Run { get; set; }
    }

    [GlobalSetup]
    public void Setup()
    {
        _orders = new BenchmarkDatabase(cacheEnabled: true);
        _store = RavenStore.ForDatabase(_orders.Database, new StoreConventions { MaxNumberOfRequestsPerSession = int.MaxValue });
        var random = new Random(28);
        using (var bulk = _store.BulkInsert())
        {
            for (var i = 0; i < Orders; i++)
            {
                bulk.Store(new Order
                {
                    Customer = "customer/" + random.Next(1_000),
                    Total = Math.Round((decimal)random.NextDouble() * 1_000, 2),
                    Quantity = random.Next(1, 20),
                    Weight = random.NextDouble() * 10,
                });
            }
        }
        using (var session = _store.OpenSession())
        {
            // Makes the aggregate's and the translation's index, and waits until it has every order.
            var count = session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(10)).Count(x => x.Quantity > 0 && x.Total >= 0);
            if (count != Orders)
                throw new InvalidOperationException($"The index has {count} orders, not {Orders}.");
        }
        _session = _store.OpenSession();
        _seed = new SeedDatabases();
        var auto = _seed.CacheOn.Database.Query("dynamic/Item", new IndexQuery { Query = s_auto.Query, PageSize = 1024, WaitForNonStaleResults = true });
        if (auto.TotalResults != SeedDataset.Carts || _seed.CacheOn.Database.Query(SeedDataset.Index, s_builtIn).TotalResults != SeedDataset.Carts)
            throw new InvalidOperationException("The seed queries do not find the 1,024 carts.");
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _session?.Dispose();
        _store?.Dispose();
        _orders?.Dispose();
        _seed?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>A field no query has named yet: the database makes an auto index over the 100,000 orders and answers once it has them all.</summary>
    [Benchmark(Description = "first query on a new field, 100,000 orders (makes the auto index)")]
    public int FirstAutoIndexQuery()
    {
        var run = ++_autoIndexRun;
        // The widened index (Quantity, Total and Weight) is made, filled with the 100,000 orders and queried; deleting it
        // afterwards makes the next run's query a first one again.
        var result = _orders.Database.Query("dynamic/Order", new IndexQuery
        {
            Query = $"Weight:[0 TO {run + 100}]",
            PageSize = 1,
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromMinutes(10),
        });
        foreach (var definition in _orders.Database.GetIndexes())
        {
            if (definition.Name.Contains("Weight", StringComparison.Ordinal))
                _orders.Database.DeleteIndex(definition.Name);
        }
        return result.TotalResults == Orders ? result.TotalResults : throw new InvalidOperationException($"{result.TotalResults} orders, not {Orders}.");
    }

    [Benchmark(Description = "Count() over 100,000 orders (index total)")]
    public int Count()
    {
        using var session = _store.OpenSession();
        return session.Query<Order>().Count(x => x.Quantity > 0);
    }

    [Benchmark(Description = "Sum(Quantity) over 100,000 orders (doc values)")]
    public int Sum()
    {
        using var session = _store.OpenSession();
        return session.Query<Order>().Where(x => x.Quantity > 0).Sum(x => x.Quantity);
    }

    [Benchmark(Description = "Max(Total) over 100,000 orders (doc values)")]
    public decimal Max()
    {
        using var session = _store.OpenSession();
        return session.Query<Order>().Where(x => x.Quantity > 0).Max(x => x.Total);
    }

    /// <summary>What an application does without aggregates: every order materialized and added up.</summary>
    [Benchmark(Description = "Stream() 100,000 orders and sum Quantity (materialized)")]
    public int StreamSum()
    {
        using var session = _store.OpenSession();
        var sum = 0;
        foreach (var order in session.Query<Order>().Where(x => x.Quantity > 0).Stream())
            sum += order.Quantity;
        return sum;
    }

    /// <summary>Building and translating a typical query (two conditions, one captured variable) without running it, in an open session.</summary>
    [Benchmark(Description = "translate Where(Customer == v && Total > 10) (no run)")]
    public string Translate()
    {
        var customer = _customer;
        return _session.Query<Order>().Where(x => x.Customer == customer && x.Total > 10m).ToString();
    }

    [Benchmark(Description = "seed query, built-in index: Tag:Item, warm")]
    public int SeedBuiltIn() => _seed.CacheOn.Database.Query(SeedDataset.Index, s_builtIn).Results.Count;

    [Benchmark(Description = "seed query, auto index: dynamic/Item cartId:666, warm")]
    public int SeedAuto() => _seed.CacheOn.Database.Query("dynamic/Item", s_auto).Results.Count;
}
