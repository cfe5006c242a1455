using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Bulk insert on SQLite, the embedded peer: 100,000 seed carts (JSON text) in batches of 1,000, one transaction
/// per batch, one prepared INSERT with its parameters set per row, into a new empty database each time; without
/// and with the expression index on the entity name. The database is made and deleted outside the measurement,
/// which makes BenchmarkDotNet run one invocation per iteration.
/// </summary>
[MemoryDiagnoser]
public class SqliteBulkInsertBenchmarks : IDisposable
{
    private const int Documents = 100_000;
    // Made once outside the measurement, so the rows time SQLite rather than key formatting.
    private static readonly string[] s_keys = SqliteDocumentStore.Keys("carts/", 0, Documents);
    private SqliteDocumentStore? _store;

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
                var rows = Count(store, "SELECT count(*) FROM docs");
                var items = Count(store, "SELECT count(*) FROM docs WHERE " + SqliteDocumentStore.EntityName + " = 'Item'");
                if (rows != Documents || items != Documents)
                    throw new InvalidOperationException($"Expected {Documents} Item documents, found {rows} rows, {items} Items.");
            }
        }
        GC.SuppressFinalize(this);
    }

    /// <summary>100,000 seed carts into a table with only its primary key.</summary>
    [Benchmark(Description = "SQLite: 100,000 in batches of 1,000, no index")]
    public int NoIndex() => Insert();

    /// <summary>100,000 seed carts into a table with the entity-name expression index as well.</summary>
    [Benchmark(Description = "SQLite: 100,000 in batches of 1,000, entity index")]
    public int EntityIndex() => Insert();

    private void Create(bool entityIndex)
    {
        Dispose();
        _store = new SqliteDocumentStore(entityIndex);
    }

    private int Insert()
    {
        var written = _store!.PutAll(s_keys, SqliteDocumentStore.SeedCartMetadataJson, SqliteDocumentStore.SeedCartJson);
        return written == Documents ? written : throw new InvalidOperationException($"Wrote {written} rows.");
    }

    private static long Count(SqliteDocumentStore store, string sql)
    {
        using var command = store.Connection.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }
}
