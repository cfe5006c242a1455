using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Bulk insert on LiteDB, the embedded document peer: 100,000 seed carts (<c>BsonDocument</c>s) in batches of
/// 1,000, one <c>InsertBulk</c> (one transaction) per batch, into a new empty database each time; without and with
/// the index on the entity name (made before loading). The database is made and deleted outside the measurement,
/// which makes BenchmarkDotNet run one invocation per iteration. In the dry job, which only checks that every
/// benchmark runs and is right (CI), it writes 10,000: LiteDB's 100 commits took 15-40 s per case on a loaded 2-core
/// machine.
/// </summary>
[MemoryDiagnoser]
public class LiteDbBulkInsertBenchmarks : IDisposable
{
    private static readonly int Documents = SuiteConfig.DryJob ? 10_000 : 100_000;
    // Made once outside the measurement, so the rows time LiteDB rather than key formatting.
    private static readonly string[] s_keys = SqliteDocumentStore.Keys("carts/", 0, Documents);
    private LiteDbDocumentStore? _store;

    [IterationSetup(Target = nameof(NoIndex))]
    public void CreateWithoutIndex() => Create(entityIndex: false);

    [IterationSetup(Target = nameof(EntityIndex))]
    public void CreateWithIndex() => Create(entityIndex: true);

    /// <summary>Checks what the iteration wrote, then deletes the database.</summary>
    [IterationCleanup]
    public void Dispose()
    {
        if (_store is { } store)
        {
            _store = null;
            using (store)
            {
                var documents = store.Documents.LongCount();
                var items = store.Documents.LongCount(LiteDbDocumentStore.IsEntity("Item"));
                if (documents != Documents || items != Documents)
                    throw new InvalidOperationException($"Expected {Documents} Item documents, found {documents} documents, {items} Items.");
            }
        }
        GC.SuppressFinalize(this);
    }

    /// <summary>100,000 seed carts into a collection with only its _id index.</summary>
    [Benchmark(Description = "LiteDB: 100,000 in batches of 1,000, no index")]
    public int NoIndex() => Insert();

    /// <summary>100,000 seed carts into a collection with the entity-name index as well.</summary>
    [Benchmark(Description = "LiteDB: 100,000 in batches of 1,000, entity index")]
    public int EntityIndex() => Insert();

    private void Create(bool entityIndex)
    {
        Dispose();
        _store = new LiteDbDocumentStore(entityIndex);
    }

    private int Insert()
    {
        var written = _store!.PutAll(s_keys, LiteDbDocumentStore.SeedCartMetadata, LiteDbDocumentStore.SeedCartData);
        return written == Documents ? written : throw new InvalidOperationException($"Wrote {written} documents.");
    }
}
