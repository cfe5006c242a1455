using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>A document store in a fresh temp folder holding seed carts, deleted on dispose.</summary>
internal sealed class BenchmarkStore : IDisposable
{
    private readonly string _directory = BenchmarkFolders.NewTemp();

    public BenchmarkStore(bool cacheEnabled, IReadOnlyList<string> keys)
    {
        Store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory, CacheEnabled = cacheEnabled });
        foreach (var batch in keys.Select(SeedCart.Put).Chunk(10_000))
            Store.Batch(batch);
    }

    public DocumentStore Store { get; }

    public void Dispose()
    {
        Store.Dispose();
        BenchmarkFolders.Delete(_directory);
    }
}
