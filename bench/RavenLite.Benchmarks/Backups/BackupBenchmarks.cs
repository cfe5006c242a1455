using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Benchmarks.Scale;
using RavenLite.Database;

namespace RavenLite.Benchmarks.Backups;

/// <summary>
/// A full hot backup (<see cref="DocumentDatabase.Backup"/>: the compacting LMDB copy, the indexes' pinned commits, the
/// manifest's SHA-256 of every file) of the scale dataset, into a new folder each time. Throughput is the dataset's
/// documents and the backup's bytes (printed in the setup) over the mean.
/// </summary>
[MemoryDiagnoser]
public class BackupBenchmarks
{
    private DocumentDatabase _database = null!;
    private string _folder = "";

    /// <summary>Documents in the database.</summary>
    [Params(100_000)]
    public virtual int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _database = ScaleDataset.Open(Documents);
        var folder = BenchmarkFolders.NewTemp();
        var manifest = _database.Backup(folder);
        Console.WriteLine($"// backup of {manifest.Documents} documents: {manifest.Files.Sum(f => f.Bytes)} bytes in {manifest.Files.Count} files " +
            $"(documents {manifest.Files.Where(f => f.Path.StartsWith("lmdb/", StringComparison.Ordinal)).Sum(f => f.Bytes)} bytes)");
        BenchmarkFolders.Delete(folder);
    }

    [IterationSetup]
    public void NewFolder() => _folder = BenchmarkFolders.NewTemp();

    [IterationCleanup]
    public void DeleteFolder() => BenchmarkFolders.Delete(_folder);

    [GlobalCleanup]
    public void Cleanup() => _database?.Dispose();

    [Benchmark(Description = "hot backup: documents, indexes, manifest")]
    public long Backup() => _database.Backup(_folder).LastEtag;
}

/// <summary><see cref="BackupBenchmarks"/> at 1,000,000 documents: run only when named (<c>--filter '*Million*'</c>).</summary>
[MemoryDiagnoser]
[BenchmarkCategory(MillionScaleBenchmarks.Category)]
public class MillionBackupBenchmarks : BackupBenchmarks
{
    /// <inheritdoc />
    [Params(1_000_000)]
    public override int Documents { get; set; }
}
