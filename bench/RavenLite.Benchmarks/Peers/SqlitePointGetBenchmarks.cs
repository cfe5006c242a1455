using BenchmarkDotNet.Attributes;
using Microsoft.Data.Sqlite;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Reads by key on SQLite, the embedded peer, in the seed query's data (1,024 seed carts, 1,024 User documents):
/// one cart by primary key, and all 1,024 carts in one read transaction with one prepared statement re-executed
/// per key; each document's data parsed and its <c>cartId</c> read.
/// </summary>
[MemoryDiagnoser]
public class SqlitePointGetBenchmarks : IDisposable
{
    private const int Carts = 1024;
    private const string GetSql = "SELECT key, metadata, data FROM docs WHERE key = $key";
    private readonly string[] _keys = SqliteDocumentStore.Keys("carts/", 0, Carts);
    private readonly List<SqliteDocument> _documents = new(Carts);
    private SqliteDocumentStore _store = null!;
    private SqliteCommand _get = null!;
    private SqliteParameter _key = null!;

    [GlobalSetup]
    public void Setup()
    {
        _store = SqliteDocumentStore.WithSeedData(Carts);
        _get = _store.Connection.CreateCommand();
        _get.CommandText = GetSql;
        _key = _get.Parameters.AddWithValue("$key", SeedCart.Key);
        _get.Prepare();
        // The primary key's own index, which SQLite names after the table.
        Console.Write($"Point get plan: {_store.RequirePlanUses(_get, "sqlite_autoindex_docs_1")}");
        PointGet();
        MultiGet();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _get?.Dispose();
        _store?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>carts/666 by primary key (SQLite's implicit transaction), parsed, its cartId read.</summary>
    [Benchmark(Description = "SQLite: point get + parse")]
    public long PointGet()
    {
        _get.Transaction = null;
        _key.Value = SeedCart.Key;
        using var document = ReadOne();
        var cartId = document.Data.GetProperty("cartId").GetInt64();
        return cartId == 666 ? cartId : throw new InvalidOperationException($"Wrong cartId {cartId}.");
    }

    /// <summary>
    /// The 1,024 cart keys in one read transaction; the documents are kept as a result list until the sum is
    /// taken, then disposed.
    /// </summary>
    [Benchmark(Description = "SQLite: multi-get 1,024 keys + parse")]
    public long MultiGet()
    {
        using (var transaction = _store.Connection.BeginTransaction(deferred: true))
        {
            _get.Transaction = transaction;
            foreach (var key in _keys)
            {
                _key.Value = key;
                _documents.Add(ReadOne());
            }
            transaction.Commit();
        }
        long sum = 0;
        foreach (var document in _documents)
        {
            sum += document.Data.GetProperty("cartId").GetInt64();
            document.Dispose();
        }
        _documents.Clear();
        return sum == 666L * Carts ? sum : throw new InvalidOperationException($"Wrong sum {sum}.");
    }

    private SqliteDocument ReadOne()
    {
        using var reader = _get.ExecuteReader();
        return reader.Read() ? SqliteDocument.Read(reader) : throw new InvalidOperationException($"{_key.Value} not found.");
    }
}
