using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Engines;

/// <summary>
/// The same database on LMDB and on PostgreSQL (over loopback), side by side: the seed query (<c>Tag:Item</c>, 1,024
/// carts among 2,048 documents) warm and cold, a point get warm and cold, and writes: one durable put and a durable
/// batch of 1,000 seed carts. The PostgreSQL rows run when <c>RAVENLITE_BENCH_POSTGRES</c> (or
/// <c>RAVENLITE_TEST_POSTGRES</c>) names a server.
/// </summary>
[MemoryDiagnoser]
public class EngineComparisonBenchmarks : IDisposable
{
    private const int BulkBatch = 1_000;
    private readonly string _directory = BenchmarkFolders.NewTemp();
    private DocumentDatabase? _database;
    private string? _schema;
    private int _round;

    [ParamsSource(nameof(Engines))]
    public StorageEngineKind Engine { get; set; }

    public static IEnumerable<StorageEngineKind> Engines =>
        BenchmarkPostgres.ConnectionString is null ? [StorageEngineKind.Lmdb] : [StorageEngineKind.Lmdb, StorageEngineKind.Postgres];

    private DocumentDatabase Database => _database ?? throw new InvalidOperationException("No database open.");

    [GlobalSetup]
    public void Setup()
    {
        _database = new DocumentDatabase(new DocumentDatabaseOptions
        {
            DataDirectory = _directory,
            Engine = Engine,
            ConnectionString = Engine == StorageEngineKind.Postgres ? BenchmarkPostgres.NewSchema(out _schema) : null,
        });
        SeedDataset.Load(_database, SeedDataset.Carts, SeedDataset.Others);
        _ = ColdQuery(); // fills the cache: the first query reads every document from storage
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _database?.Dispose();
        _database = null;
        if (_schema is not null)
            BenchmarkPostgres.DropSchema(_schema);
        _schema = null;
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Description = "seed query, warm cache")]
    public long WarmQuery()
    {
        var result = Database.Query(SeedDataset.Index, SeedDataset.SeedQuery);
        if (result.Timings.StorageDocuments != 0)
            throw new InvalidOperationException($"A warm query read {result.Timings.StorageDocuments} documents from storage.");
        return SeedDataset.SumCartIds(result.Results, SeedDataset.Carts);
    }

    /// <summary>Includes emptying the cache.</summary>
    [Benchmark(Description = "seed query, cold cache")]
    public long ColdQuery()
    {
        Database.ClearCache();
        return SeedDataset.SumCartIds(Database.Query(SeedDataset.Index, SeedDataset.SeedQuery).Results, SeedDataset.Carts);
    }

    [Benchmark(Description = "point get, warm cache")]
    public long WarmGet() => CartId(Database.Get(SeedCart.Key));

    [Benchmark(Description = "point get, cold cache")]
    public long ColdGet()
    {
        Database.ClearCache();
        return CartId(Database.Get(SeedCart.Key));
    }

    [Benchmark(Description = "put one seed cart, durable")]
    public long PutOne() => Database.Batch([SeedCart.Put(SeedCart.Key)])[0].Etag ?? 0;

    /// <summary>New keys each time, so every batch inserts.</summary>
    [Benchmark(Description = "bulk insert 1,000 seed carts, one durable batch")]
    public int BulkInsert()
    {
        var round = Interlocked.Increment(ref _round);
        var batch = new BatchCommand[BulkBatch];
        for (var i = 0; i < batch.Length; i++)
            batch[i] = SeedCart.Put($"bulk/{round}/{i}");
        return Database.Batch(batch).Count;
    }

    private static long CartId(Document? document) =>
        document?.Data.GetProperty("cartId").GetInt64() is SeedCart.CartId
            ? SeedCart.CartId
            : throw new InvalidOperationException($"{SeedCart.Key} was not read back.");
}
