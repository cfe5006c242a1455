using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Client;

/// <summary>
/// The seed query as typed objects: <c>Query&lt;Cart&gt;().Take(1024).ToList()</c> in a new session over the 1,024
/// seed carts (among 1,024 user documents), cache warm and cache off, embedded and remote; next to the
/// document-level seed query (warm), which the typed one adds deserialization and tracking to. The aim: the typed
/// query warm at least 5x faster than with the cache off.
/// </summary>
[MemoryDiagnoser]
public class ClientQueryBenchmarks : IDisposable
{
    private SeedDatabases _databases = null!;
    private RavenStore _warm = null!;
    private RavenStore _cold = null!;
    private ClientServer _remoteWarm = null!;
    private ClientServer _remoteCold = null!;

    [GlobalSetup]
    public void Setup()
    {
        _databases = new SeedDatabases();
        _warm = RavenStore.ForDatabase(_databases.CacheOn.Database, ClientServer.Conventions);
        _cold = RavenStore.ForDatabase(_databases.CacheOff.Database, ClientServer.Conventions);
        _remoteWarm = new ClientServer(cacheEnabled: true, SeedDataset.Carts, SeedDataset.Others);
        _remoteCold = new ClientServer(cacheEnabled: false, SeedDataset.Carts, SeedDataset.Others);
        DocumentsWarm();
        foreach (var store in new[] { _warm, _cold, _remoteWarm.Store, _remoteCold.Store })
            Query(store);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _warm?.Dispose();
        _cold?.Dispose();
        _remoteWarm?.Dispose();
        _remoteCold?.Dispose();
        _databases?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "documents: Tag:Item, PageSize 1024, warm")]
    public long DocumentsWarm() =>
        SeedDataset.SumCartIds(_databases.CacheOn.Database.Query(SeedDataset.Index, SeedDataset.SeedQuery).Results, SeedDataset.Carts);

    [Benchmark(Description = "Query<Cart>() x 1,024, warm")]
    public long TypedWarm() => Query(_warm);

    [Benchmark(Description = "Query<Cart>() x 1,024, cache off")]
    public long TypedCacheOff() => Query(_cold);

    [Benchmark(Description = "remote Query<Cart>() x 1,024, warm")]
    public long RemoteWarm() => Query(_remoteWarm.Store);

    [Benchmark(Description = "remote Query<Cart>() x 1,024, cache off")]
    public long RemoteCacheOff() => Query(_remoteCold.Store);

    private static long Query(RavenStore store)
    {
        using var session = store.OpenSession();
        var carts = session.Query<Cart>().Take(SeedDataset.Carts).ToList();
        long sum = 0;
        foreach (var cart in carts)
            sum += cart.CartId;
        return carts.Count == SeedDataset.Carts && sum == SeedCart.CartId * SeedDataset.Carts
            ? sum
            : throw new InvalidOperationException($"Wrong result: {carts.Count} carts, cartId sum {sum}.");
    }
}
