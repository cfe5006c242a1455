using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// The 2011 profile's workload: 1,024 seed carts read in one multi-get (one read transaction), each one's
/// data then read. Warm cache, cold cache (on, but emptied first) and cache off.
/// </summary>
[MemoryDiagnoser]
public class MultiGetBenchmarks : IDisposable
{
    private const int Count = 1024;
    private readonly List<string> _keys = SeedDataset.CartKeys(Count);
    private BenchmarkStore _cacheOn = null!;
    private BenchmarkStore _cacheOff = null!;

    [GlobalSetup]
    public void Setup()
    {
        _cacheOn = new BenchmarkStore(cacheEnabled: true, _keys);
        _cacheOff = new BenchmarkStore(cacheEnabled: false, _keys);
        ReadAll(_cacheOn);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _cacheOn?.Dispose();
        _cacheOff?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "1,024 docs, cache off")]
    public long CacheOff() => ReadAll(_cacheOff);

    /// <summary>Includes emptying the cache, which is small next to 1,024 deserializations.</summary>
    [Benchmark(Description = "1,024 docs, cold cache")]
    public long ColdCache()
    {
        _cacheOn.Store.ClearCache();
        return ReadAll(_cacheOn);
    }

    [Benchmark(Description = "1,024 docs, warm cache")]
    public long WarmCache() => ReadAll(_cacheOn);

    private long ReadAll(BenchmarkStore store)
    {
        long sum = 0;
        foreach (var doc in store.Store.Get(_keys))
            sum += doc?.Data.GetProperty("cartId").GetInt64() ?? throw new InvalidOperationException("A cart was not found.");
        return sum;
    }
}
