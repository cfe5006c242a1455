using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// Concurrent single-document durable writers, storage only (LMDB): 200 seed-cart puts split among 1, 4 or 16 threads,
/// each put its own durable commit, with group commit on (writes that arrive while another commits share the next
/// transaction) and off (each put commits alone: the store before group commit). A fresh folder per iteration.
/// </summary>
[MemoryDiagnoser]
public class ConcurrentWriterBenchmarks : IDisposable
{
    private const int Puts = 200;

    private BatchCommand[] _puts = [];
    private string _directory = "";
    private DocumentStore? _store;

    [Params(1, 4, 16)]
    public int Writers { get; set; }

    [Params(false, true)]
    public bool GroupCommit { get; set; }

    [GlobalSetup]
    public void Setup() => _puts = [.. SeedDataset.CartKeys(Puts).Select(SeedCart.Put)];

    [IterationSetup]
    public void OpenStore()
    {
        _directory = BenchmarkFolders.NewTemp();
        _store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory });
        _store.GroupCommit = GroupCommit;
    }

    [IterationCleanup]
    public void Close()
    {
        _store?.Dispose();
        _store = null;
        BenchmarkFolders.Delete(_directory);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        Close();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Description = "200 durable single-document puts from concurrent writers")]
    public long Put()
    {
        var store = _store ?? throw new InvalidOperationException("No store open.");
        var threads = Enumerable.Range(0, Writers).Select(w => new Thread(() =>
        {
            for (var i = w; i < _puts.Length; i += Writers)
                store.Batch([_puts[i]]);
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        var count = store.GetCounts().Documents;
        return count == Puts ? count : throw new InvalidOperationException($"Expected {Puts} documents, found {count}.");
    }
}
