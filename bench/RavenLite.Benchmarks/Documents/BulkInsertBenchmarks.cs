using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// 100,000 seed carts put in batches of 1,000 (one durable transaction each) into an empty folder made fresh for
/// every iteration: into storage alone (no indexer), and into a database whose index is then waited for until it has
/// every document (the rate a user sees before queries are up to date).
/// </summary>
[MemoryDiagnoser]
public class BulkInsertBenchmarks : IDisposable
{
    /// <summary>Documents per iteration.</summary>
    public const int Documents = 100_000;

    /// <summary>Documents per batch (transaction).</summary>
    public const int BatchSize = 1_000;

    private BatchCommand[][] _batches = [];
    private string _directory = "";
    private DocumentStore? _store;
    private DocumentDatabase? _database;

    [GlobalSetup]
    public void Setup() => _batches = [.. SeedDataset.CartKeys(Documents).Select(SeedCart.Put).Chunk(BatchSize)];

    [IterationSetup(Target = nameof(StorageOnly))]
    public void OpenStore()
    {
        _directory = BenchmarkFolders.NewTemp();
        _store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory });
    }

    [IterationSetup(Target = nameof(IndexedAndCaughtUp))]
    public void OpenDatabase()
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
    }

    [IterationCleanup]
    public void Close()
    {
        _store?.Dispose();
        _database?.Dispose();
        (_store, _database) = (null, null);
        BenchmarkFolders.Delete(_directory);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "bulk insert 100,000 in batches of 1,000, storage only")]
    public long StorageOnly()
    {
        var store = _store ?? throw new InvalidOperationException("No store open.");
        foreach (var batch in _batches)
            store.Batch(batch);
        return Check(store.GetCounts().Documents);
    }

    [Benchmark(Description = "bulk insert 100,000 in batches of 1,000, index caught up")]
    public long IndexedAndCaughtUp()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        foreach (var batch in _batches)
            database.Batch(batch);
        SeedDataset.WaitForIndex(database, Documents);
        return Check(database.GetStatistics().Documents);
    }

    private static long Check(long count) =>
        count == Documents ? count : throw new InvalidOperationException($"Expected {Documents} documents, found {count}.");
}
