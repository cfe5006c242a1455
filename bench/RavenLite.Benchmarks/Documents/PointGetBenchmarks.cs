using BenchmarkDotNet.Attributes;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// One get of the seed cart (<c>carts/666</c>, in the seed scenario's 2,048 documents), its <c>cartId</c> read:
/// cache off (BSON deserialized every time), cold cache (emptied before each get) and warm, then the other ways a
/// warm hit can be read. Each row includes the read transaction, the key fold and the storage lookup.
/// </summary>
[MemoryDiagnoser]
public class PointGetBenchmarks : IDisposable
{
    private SeedDatabases _databases = null!;

    [GlobalSetup]
    public void Setup()
    {
        _databases = new SeedDatabases();
        _ = WarmCache();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _databases?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "point get, cache off")]
    public long CacheOff() => CartId(_databases.CacheOff.Database.Get(SeedCart.Key));

    /// <summary>Includes emptying the cache, which then holds only this one document.</summary>
    [Benchmark(Description = "point get, cold cache")]
    public long ColdCache()
    {
        _databases.CacheOn.Database.ClearCache();
        return CartId(_databases.CacheOn.Database.Get(SeedCart.Key));
    }

    [Benchmark(Description = "point get, warm cache")]
    public long WarmCache() => CartId(_databases.CacheOn.Database.Get(SeedCart.Key));

    [Benchmark(Description = "point get, warm, ToJObject (copy for change)")]
    public JObject WarmCopyForChange() => _databases.CacheOn.Database.Get(SeedCart.Key)!.ToJObject();

    [Benchmark(Description = "point get, warm, DataJson (UTF-8 JSON)")]
    public ReadOnlyMemory<byte> WarmUtf8Json() => _databases.CacheOn.Database.Get(SeedCart.Key)!.DataJson;

    private static long CartId(Document? document) =>
        document?.Data.GetProperty("cartId").GetInt64() is SeedCart.CartId
            ? SeedCart.CartId
            : throw new InvalidOperationException($"{SeedCart.Key} was not read back.");
}
