using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Server.Cli;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Tools;

/// <summary>
/// <c>ravenlite export</c> and <c>ravenlite import</c> of 100,000 seed carts on a database folder, next to the
/// embedded bulk insert of the same carts in batches of the same size (the baseline: import aims at 1.3x of it), into
/// a database open before the measured time and closed after it (its indexer following the writes); the same insert
/// with the open and the close measured; and that insert with indexing deferred, as an import does it
/// (<c>DeferIndexing</c>: the indexes catch up at the next open), so that what differs from the import is only reading
/// the file and turning JSON lines into BSON. The baselines' carts are BSON already. Every iteration imports or
/// inserts into a fresh folder and exports to a fresh file.
/// </summary>
[MemoryDiagnoser]
public class ImportExportBenchmarks : IDisposable
{
    /// <summary>Documents per iteration.</summary>
    public const int Documents = 100_000;

    private BatchCommand[][] _batches = [];
    private string _source = "";
    private string _file = "";
    private string _target = "";
    private DocumentDatabase? _database;

    [GlobalSetup]
    public void Setup()
    {
        _batches = [.. SeedDataset.CartKeys(Documents).Select(SeedCart.Put).Chunk(TransferOptions.BatchSize)];
        _source = BenchmarkFolders.NewTemp();
        using (var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _source }))
        {
            foreach (var batch in _batches)
                database.Batch(batch);
        }
        _file = Path.Combine(BenchmarkFolders.NewTemp() + ".jsonl");
        Run("export", "--data-dir", _source, _file);
    }

    [IterationSetup(Target = nameof(EmbeddedBulkInsert))]
    public void OpenDatabase()
    {
        _target = BenchmarkFolders.NewTemp();
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _target });
    }

    [IterationSetup(Targets = [nameof(Import), nameof(Export), nameof(EmbeddedBulkInsertOpenToClose), nameof(EmbeddedBulkInsertDeferredOpenToClose)])]
    public void NewTarget() => _target = BenchmarkFolders.NewTemp();

    /// <summary>The import's count is checked here, outside the measured time: opening the folder again is no part of an import.</summary>
    [IterationCleanup(Target = nameof(Import))]
    public void CheckImportAndCleanup()
    {
        using (var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _target }))
            Check(database.GetStatistics().Documents);
        Cleanup();
    }

    [IterationCleanup]
    public void Cleanup()
    {
        _database?.Dispose();
        _database = null;
        BenchmarkFolders.Delete(_target);
        if (File.Exists(_target))
            File.Delete(_target);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        Cleanup();
        BenchmarkFolders.Delete(_source);
        if (File.Exists(_file))
            File.Delete(_file);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "embedded bulk insert 100,000 seed carts, batches of 1,000")]
    public long EmbeddedBulkInsert()
    {
        var database = _database ?? throw new InvalidOperationException("No database open.");
        foreach (var batch in _batches)
            database.Batch(batch);
        return Check(database.GetStatistics().Documents);
    }

    /// <summary>The baseline with the database opened on the folder and closed at the end (the indexer stops after its current batch and commits).</summary>
    [Benchmark(Description = "embedded bulk insert 100,000 seed carts, batches of 1,000, database opened and closed")]
    public long EmbeddedBulkInsertOpenToClose() => InsertOpenToClose(deferIndexing: false);

    /// <summary>
    /// The insert as <c>ravenlite import</c> writes: the database opened on the folder with indexing deferred, and
    /// closed at the end.
    /// </summary>
    [Benchmark(Description = "embedded bulk insert 100,000 seed carts, batches of 1,000, indexing deferred, opened and closed")]
    public long EmbeddedBulkInsertDeferredOpenToClose() => InsertOpenToClose(deferIndexing: true);

    private long InsertOpenToClose(bool deferIndexing)
    {
        using var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _target, DeferIndexing = deferIndexing });
        foreach (var batch in _batches)
            database.Batch(batch);
        return Check(database.GetStatistics().Documents);
    }

    [Benchmark(Description = "ravenlite import 100,000 seed carts (JSON lines) into a folder")]
    public long Import()
    {
        Run("import", "--data-dir", _target, _file);
        return Documents;
    }

    [Benchmark(Description = "ravenlite export 100,000 seed carts from a folder (JSON lines)")]
    public long Export()
    {
        Run("export", "--data-dir", _source, _target);
        return new FileInfo(_target).Length;
    }

    private static void Run(params string[] args)
    {
        using var error = new StringWriter();
        var exitCode = RavenLiteCommand.RunAsync(args, TextWriter.Null, error).GetAwaiter().GetResult();
        if (exitCode != 0)
            throw new InvalidOperationException($"ravenlite {args[0]} failed ({exitCode}): {error}");
    }

    private static long Check(long count) =>
        count == Documents ? count : throw new InvalidOperationException($"Expected {Documents} documents, found {count}.");
}
