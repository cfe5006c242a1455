using BenchmarkDotNet.Attributes;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Cache;

/// <summary>
/// One get of the seed cart through each way of reading it, from a warm cache, against the same get with
/// the cache off (which deserializes BSON every time). Each includes the read transaction and key lookup.
/// </summary>
[MemoryDiagnoser]
[SimpleJob(warmupCount: 3, iterationCount: 10)]
public class CacheHitBenchmarks : IDisposable
{
    private BenchmarkStore _cacheOn = null!;
    private BenchmarkStore _cacheOff = null!;

    [GlobalSetup]
    public void Setup()
    {
        _cacheOn = new BenchmarkStore(cacheEnabled: true, [SeedCart.Key]);
        _cacheOff = new BenchmarkStore(cacheEnabled: false, [SeedCart.Key]);
        _ = _cacheOn.Store.Get(SeedCart.Key)!.Data;
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _cacheOn?.Dispose();
        _cacheOff?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "cache off: get + Data")]
    public long CacheOffReadOnlyView() => _cacheOff.Store.Get(SeedCart.Key)!.Data.GetProperty("cartId").GetInt64();

    [Benchmark(Description = "hit: get + Data (read-only view)")]
    public long HitReadOnlyView() => _cacheOn.Store.Get(SeedCart.Key)!.Data.GetProperty("cartId").GetInt64();

    [Benchmark(Description = "hit: get + ToJObject (copy for change)")]
    public JObject HitCopyForChange() => _cacheOn.Store.Get(SeedCart.Key)!.ToJObject();

    [Benchmark(Description = "hit: get + DataJson (UTF-8 JSON)")]
    public ReadOnlyMemory<byte> HitUtf8Json() => _cacheOn.Store.Get(SeedCart.Key)!.DataJson;
}
