using System.Globalization;
using BenchmarkDotNet.Attributes;
using Microsoft.Data.Sqlite;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// Facets (issue 31): three facets (brand values, rating values, four price ranges) of a query matching 10% of the
/// products (<c>Category == "c3"</c>), from the auto index's doc values, embedded and typed; against SQLite's three
/// <c>GROUP BY</c>s over the same rows in a table with a covering index on (category, brand, rating, price), its
/// best case. Products: <see cref="Products"/>, 1,000,000 unless <c>RAVENLITE_FACET_PRODUCTS</c> says otherwise.
/// </summary>
[MemoryDiagnoser]
public class FacetBenchmarks : IDisposable
{
    public static readonly int Products = int.TryParse(Environment.GetEnvironmentVariable("RAVENLITE_FACET_PRODUCTS"), CultureInfo.InvariantCulture, out var n) ? n : 1_000_000;
    private const string Category = "c3";
    private static readonly decimal[] s_boundaries = [100m, 250m, 500m];
    private static readonly IndexQuery s_query = new()
    {
        Query = "Category:\"c3\"",
        PageSize = 0,
        Facets =
        [
            new FacetRequest { Field = "Brand" },
            new FacetRequest { Field = "Rating@dec" },
            FacetRequest.Parse("Price@dec([* TO 100},[100 TO 250},[250 TO 500},[500 TO *])"),
        ],
    };

    private BenchmarkDatabase? _database;
    private RavenStore? _store;
    private DocumentSession? _session;
    private string? _sqliteDirectory;
    private SqliteConnection? _sqlite;
    private SqliteCommand[] _groupBys = [];
    private long _expected;

    public sealed class Product
    {
        public string? Id { get; set; }
        public string Category { get; set; } = "";
        public string Brand { get; set; } = "";
        public int Rating { get; set; }
        public decimal Price { get; set; }
    }

    internal static IEnumerable<Product> Generate()
    {
        var random = new Random(31);
        for (var i = 0; i < Products; i++)
        {
            yield return new Product
            {
                Category = "c" + random.Next(10).ToString(CultureInfo.InvariantCulture),
                Brand = "brand/" + random.Next(50).ToString(CultureInfo.InvariantCulture),
                Rating = random.Next(1, 6),
                Price = Math.Round((decimal)random.NextDouble() * 1_000m, 2),
            };
        }
    }

    [GlobalSetup(Targets = [nameof(Embedded), nameof(Typed)])]
    public void SetupRavenLite()
    {
        _expected = Generate().Count(p => p.Category == Category);
        _database = new BenchmarkDatabase(cacheEnabled: false);
        _store = RavenStore.ForDatabase(_database.Database, new StoreConventions { MaxNumberOfRequestsPerSession = int.MaxValue });
        using (var bulk = _store.BulkInsert())
        {
            foreach (var product in Generate())
                bulk.Store(product);
        }
        // The first query makes the auto index over the four fields; the wait covers indexing every product.
        var first = _database.Database.Query("dynamic/Product", new IndexQuery
        {
            Query = s_query.Query,
            PageSize = 0,
            Facets = s_query.Facets,
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromMinutes(60),
        });
        Console.WriteLine($"// {Products:N0} products, {first.TotalResults:N0} match, index {first.IndexName}");
        _session = _store.OpenSession();
        if (Embedded() != _expected || Typed() != _expected)
            throw new InvalidOperationException("The facets do not count every match.");
    }

    [GlobalSetup(Target = nameof(Sqlite))]
    public void SetupSqlite()
    {
        _expected = Generate().Count(p => p.Category == Category);
        _sqliteDirectory = BenchmarkFolders.NewTemp();
        Directory.CreateDirectory(_sqliteDirectory);
        _sqlite = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = Path.Combine(_sqliteDirectory, "facets.db"), Pooling = false }.ToString());
        _sqlite.Open();
        Execute("PRAGMA journal_mode=WAL");
        Execute("CREATE TABLE products(id INTEGER PRIMARY KEY, category TEXT NOT NULL, brand TEXT NOT NULL, rating INTEGER NOT NULL, price REAL NOT NULL)");
        using (var transaction = _sqlite.BeginTransaction())
        {
            using var insert = _sqlite.CreateCommand();
            insert.Transaction = transaction;
            insert.CommandText = "INSERT INTO products(category, brand, rating, price) VALUES ($c, $b, $r, $p)";
            var c = insert.Parameters.Add("$c", SqliteType.Text);
            var b = insert.Parameters.Add("$b", SqliteType.Text);
            var r = insert.Parameters.Add("$r", SqliteType.Integer);
            var p = insert.Parameters.Add("$p", SqliteType.Real);
            insert.Prepare();
            foreach (var product in Generate())
            {
                c.Value = product.Category;
                b.Value = product.Brand;
                r.Value = product.Rating;
                p.Value = (double)product.Price;
                insert.ExecuteNonQuery();
            }
            transaction.Commit();
        }
        Execute("CREATE INDEX products_facets ON products(category, brand, rating, price)");
        Execute("ANALYZE");
        _groupBys =
        [
            Prepare("SELECT brand, count(*) FROM products WHERE category = $c GROUP BY brand"),
            Prepare("SELECT rating, count(*) FROM products WHERE category = $c GROUP BY rating"),
            Prepare("SELECT CASE WHEN price < 100 THEN 0 WHEN price < 250 THEN 1 WHEN price < 500 THEN 2 ELSE 3 END AS bucket, count(*) FROM products WHERE category = $c GROUP BY bucket"),
        ];
        if (Sqlite() != _expected)
            throw new InvalidOperationException("The GROUP BYs do not count every match.");
    }

    private void Execute(string sql)
    {
        using var command = _sqlite!.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private SqliteCommand Prepare(string sql)
    {
        var command = _sqlite!.CreateCommand();
        command.CommandText = sql;
        command.Parameters.AddWithValue("$c", Category);
        command.Prepare();
        return command;
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _session?.Dispose();
        _store?.Dispose();
        _database?.Dispose();
        foreach (var command in _groupBys)
            command.Dispose();
        _sqlite?.Dispose();
        if (_sqliteDirectory is not null)
            BenchmarkFolders.Delete(_sqliteDirectory);
        GC.SuppressFinalize(this);
    }

    /// <summary>The three facets in one embedded query; returns the rating facet's total, which is every match.</summary>
    [Benchmark(Description = "RavenLite embedded: 3 facets, 10% of the products")]
    public long Embedded()
    {
        var result = _database!.Database.Query("dynamic/Product", s_query);
        return result.Facets[1].Values.Sum(v => v.Count);
    }

    /// <summary>The same facets through the typed client: <c>Where</c>, <c>AggregateBy</c>, <c>AggregateByRanges</c>.</summary>
    [Benchmark(Description = "RavenLite typed AggregateBy: 3 facets, 10% of the products")]
    public long Typed()
    {
        var facets = _session!.Query<Product>().Where(x => x.Category == Category)
            .AggregateBy(x => x.Brand)
            .AndAggregateBy(x => x.Rating)
            .AndAggregateByRanges(x => x.Price, s_boundaries)
            .Execute();
        return facets[1].Values.Sum(v => v.Count);
    }

    /// <summary>SQLite: the three GROUP BYs in one read transaction; returns the rating counts' total.</summary>
    [Benchmark(Description = "SQLite: 3 GROUP BYs (covering index), 10% of the products")]
    public long Sqlite()
    {
        long ratings = 0;
        using var transaction = _sqlite!.BeginTransaction(deferred: true);
        for (var i = 0; i < _groupBys.Length; i++)
        {
            _groupBys[i].Transaction = transaction;
            using var reader = _groupBys[i].ExecuteReader();
            while (reader.Read())
            {
                if (i == 1)
                    ratings += reader.GetInt64(1);
            }
        }
        transaction.Commit();
        return ratings;
    }
}
