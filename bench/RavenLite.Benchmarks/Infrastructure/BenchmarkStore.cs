using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>A document store in a fresh temp folder holding seed carts, deleted on dispose.</summary>
internal sealed class BenchmarkStore : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-bench", Guid.NewGuid().ToString("N"));

    public BenchmarkStore(bool cacheEnabled, IReadOnlyList<string> keys)
    {
        Store = DocumentStore.Open(new StorageOptions { DataDirectory = _directory, CacheEnabled = cacheEnabled });
        Store.Batch(keys.Select(SeedCart.Put).ToList());
    }

    public DocumentStore Store { get; }

    public void Dispose()
    {
        Store.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
