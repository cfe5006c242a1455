namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>
/// Two databases holding the seed scenario (<see cref="SeedDataset"/>), one with the cache on and one with it off,
/// each in its own temp folder, deleted on dispose.
/// </summary>
internal sealed class SeedDatabases : IDisposable
{
    public SeedDatabases()
    {
        try
        {
            SeedDataset.Load(CacheOn.Database, SeedDataset.Carts, SeedDataset.Others);
            SeedDataset.Load(CacheOff.Database, SeedDataset.Carts, SeedDataset.Others);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public BenchmarkDatabase CacheOn { get; } = new(cacheEnabled: true);

    public BenchmarkDatabase CacheOff { get; } = new(cacheEnabled: false);

    public void Dispose()
    {
        try
        {
            CacheOn.Dispose();
        }
        finally
        {
            CacheOff.Dispose();
        }
    }
}
