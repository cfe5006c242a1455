using BenchmarkDotNet.Attributes;
using LiteDB;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Reads by key on LiteDB, the embedded document peer, in the seed query's data (1,024 seed carts, 1,024 User
/// documents): one cart with <c>FindById</c>, and all 1,024 carts with <c>FindById</c> each in one transaction
/// (LiteDB has no multi-key get); each read as a <see cref="BsonDocument"/> and its <c>cartId</c> read.
/// </summary>
[MemoryDiagnoser]
public class LiteDbPointGetBenchmarks : IDisposable
{
    private const int Carts = 1024;
    private readonly BsonValue[] _keys = [.. SqliteDocumentStore.Keys("carts/", 0, Carts).Select(key => new BsonValue(key))];
    private readonly BsonValue _pointKey = new(SeedCart.Key);
    private readonly List<BsonDocument> _documents = new(Carts);
    private LiteDbDocumentStore _store = null!;

    [GlobalSetup]
    public void Setup()
    {
        _store = LiteDbDocumentStore.WithSeedData(Carts);
        PointGet();
        MultiGet();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _store?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>carts/666 by its _id (LiteDB's own transaction), its cartId read.</summary>
    [Benchmark(Description = "LiteDB: FindById")]
    public long PointGet()
    {
        var document = _store.Documents.FindById(_pointKey) ?? throw new InvalidOperationException($"{SeedCart.Key} not found.");
        var cartId = document["data"]["cartId"].AsInt64;
        return cartId == SeedCart.CartId ? cartId : throw new InvalidOperationException($"Wrong cartId {cartId}.");
    }

    /// <summary>The 1,024 cart keys in one transaction; the documents are kept as a result list until the sum is taken.</summary>
    [Benchmark(Description = "LiteDB: multi-get 1,024 keys (FindById each)")]
    public long MultiGet()
    {
        if (!_store.Database.BeginTrans())
            throw new InvalidOperationException("A LiteDB transaction was already open on this thread.");
        try
        {
            foreach (var key in _keys)
                _documents.Add(_store.Documents.FindById(key) ?? throw new InvalidOperationException($"{key} not found."));
        }
        finally
        {
            _store.Database.Commit();
        }
        long sum = 0;
        foreach (var document in _documents)
            sum += document["data"]["cartId"].AsInt64;
        var count = _documents.Count;
        _documents.Clear();
        return count == Carts && sum == SeedCart.CartId * Carts
            ? sum
            : throw new InvalidOperationException($"Wrong result: {count} documents, sum {sum}.");
    }
}
