using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Backups;

/// <summary>
/// The write rate with and without a hot backup running: 10 durable batches of 100 documents (each batch one write
/// transaction, its index caught up by the background indexer meanwhile) into a copy of the 100,000-document scale
/// dataset, while <see cref="DuringBackup"/> has backups of that copy running back to back on another thread.
/// </summary>
[MemoryDiagnoser]
public class WritesDuringBackupBenchmarks : IDisposable
{
    private const int Batches = 10;
    private const int BatchSize = 100;
    private static readonly DocumentContent s_data = DocumentContent.FromJson("""{"name":"written during the benchmark","n":1}""");
    private static readonly DocumentContent s_metadata = DocumentContent.FromJson("""{"Raven-Entity-Name":"Written"}""");
    private readonly List<string> _folders = [];
    private DocumentDatabase _database = null!;
    private readonly CancellationTokenSource _stop = new();
    private Task<int>? _backups;
    private int _round;

    [Params(100_000)]
    public int Documents { get; set; }

    /// <summary>Whether backups run back to back while the writes are measured.</summary>
    [Params(false, true)]
    public bool DuringBackup { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // Writes must not change the shared dataset: they go to a restored copy of it.
        var backup = Track(BenchmarkFolders.NewTemp());
        var copy = Track(BenchmarkFolders.NewTemp());
        using (var dataset = ScaleDataset.Open(Documents))
            dataset.Backup(backup);
        DocumentDatabase.Restore(backup, copy);
        _database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = copy });
        if (DuringBackup)
            _backups = Task.Factory.StartNew(BackUpUntilStopped, TaskCreationOptions.LongRunning);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        if (_stop.IsCancellationRequested)
            return;
        _stop.Cancel();
        if (_backups is not null)
            Console.WriteLine($"// {_backups.GetAwaiter().GetResult()} backups ran during the writes");
        _database?.Dispose();
        _folders.ForEach(BenchmarkFolders.Delete);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Description = "10 durable batches of 100 puts", OperationsPerInvoke = Batches * BatchSize)]
    public long Write()
    {
        var round = Interlocked.Increment(ref _round) % 10;
        long last = 0;
        for (var batch = 0; batch < Batches; batch++)
        {
            var results = _database.Batch([.. Enumerable.Range(batch * BatchSize, BatchSize)
                .Select(i => BatchCommand.Put($"written/{round}/{i}", s_data, s_metadata))]);
            last = results[^1].Etag!.Value;
        }
        return last;
    }

    private int BackUpUntilStopped()
    {
        var count = 0;
        while (!_stop.IsCancellationRequested)
        {
            var folder = BenchmarkFolders.NewTemp();
            try
            {
                _database.Backup(folder);
                count++;
            }
            finally
            {
                BenchmarkFolders.Delete(folder);
            }
        }
        return count;
    }

    private string Track(string folder)
    {
        _folders.Add(folder);
        return folder;
    }
}
