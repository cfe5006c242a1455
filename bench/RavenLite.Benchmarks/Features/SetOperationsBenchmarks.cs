using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing.Definitions;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Features;

/// <summary>
/// Issue 32's set operations over 100,000 seed carts, embedded, against the bulk insert of the same carts (batches of
/// 1,000, one durable transaction each, into a fresh folder): delete by query (<c>Tag:Item</c> on the built-in index,
/// batches of 1,024) and patch by query (one <c>add</c>), each until the operation has committed every batch, on a
/// database seeded and indexed before the iteration. The aim: delete by query at least half the bulk insert's rate.
/// </summary>
[MemoryDiagnoser]
public class SetOperationsBenchmarks : IDisposable
{
    /// <summary>Documents per iteration.</summary>
    public const int Documents = 100_000;

    private static readonly DocumentPatch s_archive = DocumentPatch.FromOperations([PatchOperation.Add("/Archived", true)]);
    private BatchCommand[][] _batches = [];
    private string _directory = "";
    private DocumentDatabase? _database;

    [GlobalSetup]
    public void Setup() => _batches = [.. SeedDataset.CartKeys(Documents).Select(SeedCart.Put).Chunk(1_000)];

    [IterationSetup(Target = nameof(BulkInsert))]
    public void OpenEmpty()
    {
        _directory = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory });
    }

    [IterationSetup(Targets = [nameof(DeleteByQuery), nameof(PatchByQuery)])]
    public void OpenSeeded()
    {
        OpenEmpty();
        foreach (var batch in _batches)
            _database!.Batch(batch);
        SeedDataset.WaitForIndex(_database!, Documents);
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

    [Benchmark(Baseline = true, Description = "bulk insert 100,000 in batches of 1,000")]
    public long BulkInsert()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        foreach (var batch in _batches)
            database.Batch(batch);
        return Check(database.GetStatistics().Documents, Documents);
    }

    [Benchmark(Description = "delete by query 100,000 (Tag:Item)")]
    public long DeleteByQuery()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        var status = database.DeleteByQuery(BuiltInIndexes.DocumentsByEntityNameName, "Tag:Item").Completion.GetAwaiter().GetResult();
        Check(status.Changed, Documents);
        return Check(database.GetStatistics().Documents, 0);
    }

    [Benchmark(Description = "patch by query 100,000 (Tag:Item, one add)")]
    public long PatchByQuery()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        var status = database.PatchByQuery(BuiltInIndexes.DocumentsByEntityNameName, "Tag:Item", s_archive).Completion.GetAwaiter().GetResult();
        return Check(status.Changed, Documents);
    }

    private static long Check(long count, long expected) =>
        count == expected ? count : throw new InvalidOperationException($"Expected {expected} documents, found {count}.");
}
