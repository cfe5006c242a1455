using BenchmarkDotNet.Attributes;
using LiteDB;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// The 2011 seed query on LiteDB, the embedded document peer: the Item documents' total and first page of 1,024
/// through the index on the entity name (made before loading; the file checkpointed after), in one transaction,
/// each cart read as LiteDB's own parsed form (<see cref="BsonDocument"/>) and its <c>cartId</c> read. 1,024 seed
/// carts among 1,024 User documents. The filter is parsed once and reused, as a tuned user would.
/// </summary>
[MemoryDiagnoser]
public class LiteDbSeedQueryBenchmarks : IDisposable
{
    private const int Carts = 1024;
    private readonly BsonExpression _isItem = LiteDbDocumentStore.IsEntity("Item");
    private LiteDbDocumentStore _store = null!;

    [GlobalSetup]
    public void Setup()
    {
        _store = LiteDbDocumentStore.WithSeedData(Carts);
        Console.WriteLine($"Page query plan: {_store.RequireEntityIndexSeek(_isItem)}");
        SeedQuery();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _store?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>Count and page in one transaction, each cart's cartId read from the page it returned.</summary>
    [Benchmark(Description = "LiteDB: Tag:Item, PageSize 1024, read cartId")]
    public long SeedQuery()
    {
        int total;
        List<BsonDocument> page;
        if (!_store.Database.BeginTrans())
            throw new InvalidOperationException("A LiteDB transaction was already open on this thread.");
        try
        {
            total = _store.Documents.Count(_isItem);
            page = _store.Documents.Query().Where(_isItem).Limit(Carts).ToList();
        }
        finally
        {
            _store.Database.Commit();
        }
        long sum = 0;
        foreach (var document in page)
            sum += document["data"]["cartId"].AsInt64;
        return total == Carts && page.Count == Carts && sum == 666L * Carts
            ? sum
            : throw new InvalidOperationException($"Wrong result: total {total}, {page.Count} documents, sum {sum}.");
    }
}
