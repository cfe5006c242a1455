using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;

namespace RavenLite.Benchmarks.Backups;

/// <summary>
/// Why backups copy the indexes rather than rebuild them on restore: the time from a backup of the 100,000-document
/// scale dataset to a database whose indexes have caught up, restoring the indexes' copied commits
/// (<see cref="IndexesCopied"/>) or throwing them away so the restored database rebuilds them from the documents.
/// </summary>
[MemoryDiagnoser]
public class RestoreBenchmarks
{
    private string _backup = "";
    private string _target = "";

    [Params(100_000)]
    public int Documents { get; set; }

    /// <summary>Whether the indexes come from the backup (true) or are rebuilt from the documents (false).</summary>
    [Params(true, false)]
    public bool IndexesCopied { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _backup = BenchmarkFolders.NewTemp();
        using var dataset = ScaleDataset.Open(Documents);
        dataset.Backup(_backup);
    }

    [IterationSetup]
    public void NewTarget() => _target = BenchmarkFolders.NewTemp();

    [IterationCleanup]
    public void DeleteTarget() => BenchmarkFolders.Delete(_target);

    [GlobalCleanup]
    public void Cleanup() => BenchmarkFolders.Delete(_backup);

    [Benchmark(Description = "restore, open, indexes caught up")]
    public void RestoreAndCatchUp()
    {
        DocumentDatabase.Restore(_backup, _target);
        if (!IndexesCopied)
            BenchmarkFolders.Delete(Path.Combine(_target, "Indexes"));
        using var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _target });
        SeedDataset.WaitForIndex(database, ScaleDataset.Carts);
    }
}
