using BenchmarkDotNet.Attributes;
using LiteDB;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Benchmarks.Peers;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Client;

/// <summary>
/// Typed reads of the seed carts, in one class so one run compares them: <c>Query&lt;Cart&gt;().Take(1024).ToList()</c>
/// in a new session over the 1,024 seed carts (among 1,024 user documents) with the entity cache warm, with it off,
/// with the document cache off, and with both off; <c>Load&lt;Cart&gt;</c> of one cart warm next to
/// <c>DocumentDatabase.Get</c>; the same over HTTP, revalidated (<c>304</c>, served from the entity cache) and as a
/// full read (no revalidation, entity cache off: the client before issue 18); and LiteDB's typed <c>Find</c> and
/// <c>FindById</c> of the same <see cref="Cart"/> class; and the warm query as <see cref="ReadOnlyCart"/>, a read-only
/// type whose cached instances the sessions share instead of copying. Aims: the warm typed query 10x faster than with the caches
/// off and than LiteDB's <c>Find</c>; the warm load within 5x of <c>DocumentDatabase.Get</c>.
/// </summary>
[MemoryDiagnoser]
public class ClientQueryBenchmarks : IDisposable
{
    private const string Key = "carts/0";
    private static readonly EntityCacheOptions s_entityCacheOff = new() { MaxEntries = 0, MaxResponseBytes = 0 };
    private readonly BsonExpression _isItem = BsonExpression.Create("$.Tag = @0", "Item");
    private SeedDatabases _databases = null!;
    private RavenStore _warm = null!;
    private RavenStore _entityCacheOff = null!;
    private RavenStore _documentCacheOff = null!;
    private RavenStore _cachesOff = null!;
    private ClientServer _server = null!;
    private RavenStore _remoteFullRead = null!;
    private LiteDbTypedCarts _lite = null!;

    [GlobalSetup]
    public void Setup()
    {
        _databases = new SeedDatabases();
        _warm = RavenStore.ForDatabase(_databases.CacheOn.Database, ClientServer.Conventions);
        _entityCacheOff = RavenStore.ForDatabase(_databases.CacheOn.Database, ClientServer.ConventionsWith(s_entityCacheOff));
        _documentCacheOff = RavenStore.ForDatabase(_databases.CacheOff.Database, ClientServer.Conventions);
        _cachesOff = RavenStore.ForDatabase(_databases.CacheOff.Database, ClientServer.ConventionsWith(s_entityCacheOff));
        _server = new ClientServer(cacheEnabled: true, SeedDataset.Carts, SeedDataset.Others);
        _remoteFullRead = RavenStore.ForServer(_server.Url, ClientServer.ConventionsWith(s_entityCacheOff));
        _lite = new LiteDbTypedCarts(SeedDataset.Carts, SeedDataset.Others);
        DocumentsWarm();
        foreach (var store in new[] { _warm, _entityCacheOff, _documentCacheOff, _cachesOff, _server.Store, _remoteFullRead })
        {
            Query(store);
            Load(store);
        }
        TypedReadOnlyWarm();
        RemoteReadOnlyRevalidated();
        if (DatabaseGet() <= 0 || LiteDbFind() != SeedCart.CartId * SeedDataset.Carts || LiteDbFindById() != SeedCart.CartId)
            throw new InvalidOperationException("A benchmark does not read the seed carts.");
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _warm?.Dispose();
        _entityCacheOff?.Dispose();
        _documentCacheOff?.Dispose();
        _cachesOff?.Dispose();
        _remoteFullRead?.Dispose();
        _server?.Dispose();
        _lite?.Dispose();
        _databases?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "documents: Tag:Item, PageSize 1024, warm")]
    public long DocumentsWarm() =>
        SeedDataset.SumCartIds(_databases.CacheOn.Database.Query(SeedDataset.Index, SeedDataset.SeedQuery).Results, SeedDataset.Carts);

    [Benchmark(Description = "Query<Cart>() x 1,024, warm")]
    public long TypedWarm() => Query(_warm);

    [Benchmark(Description = "Query<ReadOnlyCart>() x 1,024, warm (read-only: shared, not copied)")]
    public long TypedReadOnlyWarm() => Query<ReadOnlyCart>(_warm, cart => cart.CartId);

    /// <summary>
    /// The floor of a typed query that copies: the read-only query (the index, the cached documents, the session's
    /// tracking) and then, per result, a hand-written mutable <see cref="Cart"/> with its list and items, as any copy
    /// must allocate and fill them. No copier can make <see cref="TypedWarm"/> faster than this row.
    /// </summary>
    [Benchmark(Description = "floor of copying: Query<ReadOnlyCart>() x 1,024 + a hand-written Cart copy of each")]
    public long TypedCopyFloor()
    {
        using var session = _warm.OpenSession();
        var carts = session.Query<ReadOnlyCart>().Take(SeedDataset.Carts).ToList();
        var copies = new List<Cart>(carts.Count);
        foreach (var cart in carts)
        {
            var items = new List<Item>(cart.Items.Count);
            foreach (var item in cart.Items)
                items.Add(new Item { ProductId = item.ProductId, Name = item.Name, Price = item.Price, Quantity = item.Quantity });
            copies.Add(new Cart { Id = cart.Id, CartId = cart.CartId, OtherStuff = cart.OtherStuff, Items = items });
        }
        long sum = 0;
        foreach (var copy in copies)
            sum += copy.CartId + copy.Items.Count;
        return sum;
    }

    [Benchmark(Description = "Query<Cart>() x 1,024, entity cache off")]
    public long TypedEntityCacheOff() => Query(_entityCacheOff);

    [Benchmark(Description = "Query<Cart>() x 1,024, document cache off")]
    public long TypedDocumentCacheOff() => Query(_documentCacheOff);

    [Benchmark(Description = "Query<Cart>() x 1,024, entity and document caches off")]
    public long TypedCachesOff() => Query(_cachesOff);

    [Benchmark(Description = "LiteDB: typed Find(Tag = Item) x 1,024")]
    public long LiteDbFind()
    {
        long sum = 0;
        var count = 0;
        foreach (var cart in _lite.Carts.Find(_isItem, limit: SeedDataset.Carts))
        {
            sum += cart.CartId;
            count++;
        }
        return count == SeedDataset.Carts ? sum : throw new InvalidOperationException($"LiteDB found {count} carts.");
    }

    [Benchmark(Description = "DocumentDatabase.Get, warm")]
    public long DatabaseGet() => _databases.CacheOn.Database.Get(Key)!.Etag;

    [Benchmark(Description = "Load<Cart>, new session, warm")]
    public long LoadWarm() => Load(_warm);

    [Benchmark(Description = "LiteDB: typed FindById")]
    public long LiteDbFindById() => _lite.Carts.FindById(Key).CartId;

    [Benchmark(Description = "remote Query<Cart>() x 1,024, revalidated (304)")]
    public long RemoteQueryRevalidated() => Query(_server.Store);

    [Benchmark(Description = "remote Query<ReadOnlyCart>() x 1,024, revalidated (304)")]
    public long RemoteReadOnlyRevalidated() => Query<ReadOnlyCart>(_server.Store, cart => cart.CartId);

    [Benchmark(Description = "remote Query<Cart>() x 1,024, full read")]
    public long RemoteQueryFullRead() => Query(_remoteFullRead);

    [Benchmark(Description = "remote Load<Cart>, revalidated (304)")]
    public long RemoteLoadRevalidated() => Load(_server.Store);

    [Benchmark(Description = "remote Load<Cart>, full read")]
    public long RemoteLoadFullRead() => Load(_remoteFullRead);

    private static long Query(RavenStore store) => Query<Cart>(store, cart => cart.CartId);

    private static long Query<T>(RavenStore store, Func<T, long> cartId) where T : class
    {
        using var session = store.OpenSession();
        var carts = session.Query<T>().Take(SeedDataset.Carts).ToList();
        long sum = 0;
        foreach (var cart in carts)
            sum += cartId(cart);
        return carts.Count == SeedDataset.Carts && sum == SeedCart.CartId * SeedDataset.Carts
            ? sum
            : throw new InvalidOperationException($"Wrong result: {carts.Count} carts, cartId sum {sum}.");
    }

    private static long Load(RavenStore store)
    {
        using var session = store.OpenSession();
        var cart = session.Load<Cart>(Key)!;
        return cart.CartId == SeedCart.CartId ? cart.CartId : throw new InvalidOperationException($"Wrong cart: {cart.CartId}.");
    }
}
