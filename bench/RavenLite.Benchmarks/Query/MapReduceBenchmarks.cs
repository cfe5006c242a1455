using System.Globalization;
using BenchmarkDotNet.Attributes;
using LiteDB;
using Microsoft.Data.Sqlite;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// Orders of 1,000 customers and the map/reduce index of their totals (Count and Sum of Total per Customer), for
/// issue 31's aims: reading every group's result against SQLite's <c>GROUP BY</c> over the same rows (an index on the
/// customer column) and LiteDB's (a collection of the same orders, an index on <c>customer</c>); the cost of one update under the map/reduce at two sizes (<see cref="MapReduceUpdateBenchmarks"/>);
/// and bulk insert with the map/reduce caught up against the built-in index alone (<see cref="MapReduceBulkInsertBenchmarks"/>).
/// </summary>
[MemoryDiagnoser]
public class MapReduceBenchmarks : IDisposable
{
    public const int Orders = 100_000;
    public const int Customers = 1_000;
    public const string IndexName = "Orders/TotalsByCustomer";

    public const string IndexJson = """
        {"Name": "Orders/TotalsByCustomer", "EntityName": "Order",
         "Fields": [{"Name": "Customer", "Path": "Customer"}, {"Name": "Total", "Path": "Total", "Sort": "Double"}],
         "Reduce": {"GroupBy": ["Customer"], "Aggregates": [{"Name": "Count", "Function": "Count"}, {"Name": "Sum", "Function": "Sum", "Field": "Total"}]}}
        """;

    private static readonly DocumentContent s_metadata = DocumentContent.FromJson("""{"Raven-Entity-Name":"Order"}""");
    private string _directory = "";
    private DocumentDatabase _database = null!;
    private SqliteConnection _sqlite = null!;
    private SqliteCommand _groupBy = null!;
    private LiteDatabase _lite = null!;

    public static decimal TotalOf(int order) => (order % 997) + (order % 7) / 4m;

    public static string Json(int order, decimal total) =>
        $$"""{"Customer": "customers/{{order % Customers}}", "Total": {{total.ToString(CultureInfo.InvariantCulture)}}, "Note": "order {{order}}"}""";

    public static BatchCommand Put(int order) =>
        BatchCommand.Put($"orders/{order}", DocumentContent.FromJson(Json(order, TotalOf(order))), s_metadata);

    /// <summary>Puts <paramref name="count"/> orders in batches of 1,000 and, with <paramref name="wait"/>, waits for the map/reduce.</summary>
    public static void Load(DocumentDatabase database, int count, bool wait = true)
    {
        foreach (var chunk in Enumerable.Range(0, count).Chunk(1_000))
            database.Batch([.. chunk.Select(Put)]);
        if (wait)
            WaitForTotals(database, Math.Min(count, Customers));
    }

    public static void WaitForTotals(DocumentDatabase database, int groups)
    {
        var ready = database.Query(IndexName, new IndexQuery
        {
            Query = "*:*", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(30),
        });
        if (ready.TotalResults != groups)
            throw new InvalidOperationException($"Expected {groups} groups, the map/reduce index has {ready.TotalResults}.");
    }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = Path.Combine(_directory, "raven") });
        _database.PutIndex(IndexDefinition.FromJson(IndexJson));
        Load(_database, Orders);

        _sqlite = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = Path.Combine(_directory, "orders.db"), Pooling = false }.ToString());
        _sqlite.Open();
        Execute("PRAGMA journal_mode=WAL");
        Execute("CREATE TABLE orders (key TEXT PRIMARY KEY, customer TEXT NOT NULL, total REAL NOT NULL)");
        Execute("CREATE INDEX orders_customer ON orders (customer)");
        using (var transaction = _sqlite.BeginTransaction())
        using (var insert = _sqlite.CreateCommand())
        {
            insert.Transaction = transaction;
            insert.CommandText = "INSERT INTO orders VALUES ($key, $customer, $total)";
            var key = insert.Parameters.Add("$key", SqliteType.Text);
            var customer = insert.Parameters.Add("$customer", SqliteType.Text);
            var total = insert.Parameters.Add("$total", SqliteType.Real);
            for (var i = 0; i < Orders; i++)
            {
                (key.Value, customer.Value, total.Value) = ($"orders/{i}", $"customers/{i % Customers}", (double)TotalOf(i));
                insert.ExecuteNonQuery();
            }
            transaction.Commit();
        }
        Execute("ANALYZE");
        _groupBy = _sqlite.CreateCommand();
        _groupBy.CommandText = "SELECT customer, count(*), sum(total) FROM orders GROUP BY customer";
        _groupBy.Prepare();
        Console.WriteLine($"SQLite plan: {string.Join("; ", Plan())}");

        _lite = new LiteDatabase(new ConnectionString { Filename = Path.Combine(_directory, "orders.litedb"), Connection = ConnectionType.Direct });
        var orders = _lite.GetCollection(LiteCollection);
        orders.EnsureIndex("customer");
        foreach (var chunk in Enumerable.Range(0, Orders).Chunk(1_000))
        {
            orders.InsertBulk(chunk.Select(i => new BsonDocument
            {
                ["_id"] = $"orders/{i}", ["customer"] = $"customers/{i % Customers}", ["total"] = (double)TotalOf(i),
            }));
        }
        _lite.Checkpoint();
        if (Math.Abs(ReadResults() - SqliteGroupBy()) > 0.01 || Math.Abs(ReadResults() - LiteDbGroupBy()) > 0.01)
            throw new InvalidOperationException("The map/reduce totals, SQLite's and LiteDB's differ.");
    }

    private const string LiteCollection = "orders";

    private IEnumerable<string> Plan()
    {
        using var explain = _sqlite.CreateCommand();
        explain.CommandText = "EXPLAIN QUERY PLAN " + _groupBy.CommandText;
        using var reader = explain.ExecuteReader();
        while (reader.Read())
            yield return reader.GetString(3);
    }

    private void Execute(string sql)
    {
        using var command = _sqlite.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _groupBy?.Dispose();
        _sqlite?.Dispose();
        _lite?.Dispose();
        _database?.Dispose();
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    /// <summary>The 1,000 groups' results in one page, each one's Count and Sum read.</summary>
    [Benchmark(Baseline = true, Description = "map/reduce: read 1,000 groups' Count and Sum (100,000 orders)")]
    public double ReadResults()
    {
        var page = _database.Query(IndexName, new IndexQuery { Query = "*:*", PageSize = 1024 });
        double sum = 0;
        long count = 0;
        foreach (var result in page.Results)
        {
            count += result.Data.GetProperty("Count").GetInt64();
            sum += result.Data.GetProperty("Sum").GetDouble();
        }
        return page.Results.Count == Customers && count == Orders ? sum : throw new InvalidOperationException($"Wrong page: {page.Results.Count} groups, {count} orders.");
    }

    /// <summary>SQLite's <c>GROUP BY</c> on the indexed customer column over the same 100,000 rows, every row read.</summary>
    [Benchmark(Description = "SQLite: SELECT customer, count(*), sum(total) GROUP BY customer")]
    public double SqliteGroupBy()
    {
        double sum = 0;
        long count = 0;
        var groups = 0;
        using (var reader = _groupBy.ExecuteReader())
        {
            while (reader.Read())
            {
                _ = reader.GetString(0);
                count += reader.GetInt64(1);
                sum += reader.GetDouble(2);
                groups++;
            }
        }
        return groups == Customers && count == Orders ? sum : throw new InvalidOperationException($"Wrong answer: {groups} groups, {count} orders.");
    }

    /// <summary>LiteDB's <c>GROUP BY</c> over the same 100,000 orders (a collection with an index on customer), every group read.</summary>
    [Benchmark(Description = "LiteDB: SELECT {customer, COUNT, SUM(total)} GROUP BY customer")]
    public double LiteDbGroupBy()
    {
        double sum = 0;
        long count = 0;
        var groups = 0;
        using (var reader = _lite.Execute("SELECT { customer: @key, count: COUNT(*), total: SUM(*.total) } FROM orders GROUP BY customer"))
        {
            while (reader.Read())
            {
                var group = reader.Current.AsDocument;
                _ = group["customer"].AsString;
                count += group["count"].AsInt64;
                sum += group["total"].AsDouble;
                groups++;
            }
        }
        return groups == Customers && count == Orders ? sum : throw new InvalidOperationException($"Wrong answer: {groups} groups, {count} orders.");
    }
}

/// <summary>
/// One order's total changed (a durable put) and the map/reduce waited for until it has it, under a map/reduce of
/// <see cref="Documents"/> orders over 1,000 customers: the cost should follow the group, not the collection. The
/// 1,000,000-order case is <see cref="MillionMapReduceUpdateBenchmarks"/>, run only when named.
/// </summary>
[MemoryDiagnoser]
public class MapReduceUpdateBenchmarks : IDisposable
{
    private string _directory = "";
    private DocumentDatabase _database = null!;
    private int _version;

    [Params(1_000, 100_000)]
    public virtual int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
        _database.PutIndex(IndexDefinition.FromJson(MapReduceBenchmarks.IndexJson));
        MapReduceBenchmarks.Load(_database, Documents);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _database?.Dispose();
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Description = "update one order, map/reduce caught up")]
    public int UpdateOne()
    {
        var order = 7 + (_version % 10) * Math.Min(Documents, 1_000) / 10;
        _version++;
        _database.Put($"orders/{order}", DocumentContent.FromJson(MapReduceBenchmarks.Json(order, 1_000 + _version % 100)),
            DocumentContent.FromJson("""{"Raven-Entity-Name":"Order"}"""));
        return _database.Query(MapReduceBenchmarks.IndexName, new IndexQuery
        {
            Query = "*:*", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(1),
        }).TotalResults;
    }
}

/// <summary>100,000 orders put in batches of 1,000 into a fresh database, until its indexes have them all: the built-in index alone, or with the map/reduce too.</summary>
[MemoryDiagnoser]
public class MapReduceBulkInsertBenchmarks : IDisposable
{
    private string _directory = "";
    private DocumentDatabase? _database;

    [IterationSetup(Target = nameof(BuiltInOnly))]
    public void Open() => Open(mapReduce: false);

    [IterationSetup(Target = nameof(WithMapReduce))]
    public void OpenWithMapReduce() => Open(mapReduce: true);

    private void Open(bool mapReduce)
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
        if (mapReduce)
            _database.PutIndex(IndexDefinition.FromJson(MapReduceBenchmarks.IndexJson));
    }

    [IterationCleanup]
    public void Close()
    {
        _database?.Dispose();
        _database = null;
        BenchmarkFolders.Delete(_directory);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "bulk insert 100,000 orders, built-in index caught up")]
    public long BuiltInOnly()
    {
        MapReduceBenchmarks.Load(_database!, MapReduceBenchmarks.Orders, wait: false);
        return WaitForBuiltIn();
    }

    [Benchmark(Description = "bulk insert 100,000 orders, built-in and map/reduce caught up")]
    public long WithMapReduce()
    {
        MapReduceBenchmarks.Load(_database!, MapReduceBenchmarks.Orders, wait: true);
        return WaitForBuiltIn();
    }

    private long WaitForBuiltIn()
    {
        var ready = _database!.Query("Raven/DocumentsByEntityName", new IndexQuery
        {
            Query = "Tag:Order", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(30),
        });
        return ready.TotalResults == MapReduceBenchmarks.Orders ? ready.TotalResults : throw new InvalidOperationException($"Found {ready.TotalResults} orders.");
    }
}
