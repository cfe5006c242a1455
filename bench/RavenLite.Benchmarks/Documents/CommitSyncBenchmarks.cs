using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// What a durable LMDB commit's syncs cost: the same writes committed durably (LMDB writes the dirty pages, then
/// <c>fdatasync</c>s the data file, then writes the meta page through a descriptor opened with <c>O_DSYNC</c>) and lazily
/// (<c>MDB_NOSYNC</c> for that commit: the same writes, no sync), and pipelined (<c>MDB_NOMETASYNC</c>: the data
/// synced, the meta page written unsynced and made durable by the next commit's sync; the last of the 100 commits is
/// durable, so the run ends durable). The difference is the syncs. Storage only (no
/// indexer): 100 batches of 1,000 seed carts (the bulk insert's shape), and 100 commits of one cart each. Each
/// iteration writes into a fresh folder.
/// </summary>
[MemoryDiagnoser]
public class CommitSyncBenchmarks : IDisposable
{
    private const int Commits = 100;
    private const int BatchSize = 1_000;

    private BatchCommand[][] _batches = [];
    private BatchCommand[][] _singles = [];
    private string _directory = "";
    private DocumentStore? _store;

    [Params(CommitMode.Durable, CommitMode.Lazy, CommitMode.Pipelined)]
    public CommitMode Mode { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var keys = SeedDataset.CartKeys(Commits * BatchSize).ToArray();
        _batches = [.. keys.Select(SeedCart.Put).Chunk(BatchSize)];
        _singles = [.. keys.Take(Commits).Select(k => new[] { SeedCart.Put(k) })];
    }

    [IterationSetup]
    public void OpenStore()
    {
        _directory = BenchmarkFolders.NewTemp();
        _store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory });
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

    [Benchmark(Description = "100 commits of 1,000 carts, storage only")]
    public long Batches() => Write(_batches);

    [Benchmark(Description = "100 commits of one cart, storage only")]
    public long Singles() => Write(_singles);

    private long Write(BatchCommand[][] commits)
    {
        var store = _store ?? throw new InvalidOperationException("No store open.");
        for (var i = 0; i < commits.Length; i++)
            store.Batch(commits[i], Mode == CommitMode.Pipelined && i == commits.Length - 1 ? CommitMode.Durable : Mode);
        return store.GetCounts().Documents;
    }
}
