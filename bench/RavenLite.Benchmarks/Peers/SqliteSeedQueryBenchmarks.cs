using BenchmarkDotNet.Attributes;
using Microsoft.Data.Sqlite;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// The 2011 seed query on SQLite, the embedded peer: the Item documents' total and first page of 1,024 through the
/// expression index on the entity name, in one read transaction, each cart's data parsed and its <c>cartId</c>
/// read. 1,024 seed carts among 1,024 User documents. Statements are prepared once and re-executed, as a tuned
/// user would. The "JSON text only" row skips the parse: SQLite's own share.
/// </summary>
[MemoryDiagnoser]
public class SqliteSeedQueryBenchmarks : IDisposable
{
    private const int Carts = 1024;
    private const string CountSql = "SELECT count(*) FROM docs WHERE " + SqliteDocumentStore.EntityName + " = $entity";
    // No ORDER BY: the index hands the rows over in its own order, as RavenLite's index does.
    private const string PageSql = "SELECT key, metadata, data FROM docs WHERE " + SqliteDocumentStore.EntityName
        + " = $entity LIMIT $pageSize";
    private readonly List<SqliteDocument> _page = new(Carts);
    private SqliteDocumentStore _store = null!;
    private SqliteCommand _count = null!;
    private SqliteCommand _query = null!;

    [GlobalSetup]
    public void Setup()
    {
        _store = SqliteDocumentStore.WithSeedData(Carts);
        _count = Prepare(CountSql, pageSize: null);
        _query = Prepare(PageSql, pageSize: Carts);
        Console.Write($"Count plan: {_store.RequirePlanUses(_count, SqliteDocumentStore.EntityIndex)}");
        Console.Write($"Page query plan: {_store.RequirePlanUses(_query, SqliteDocumentStore.EntityIndex)}");
        SeedQuery();
        JsonTextOnly();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _count?.Dispose();
        _query?.Dispose();
        _store?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// Count and page, each cart's cartId read. The page is kept as a result list until the sum is taken, then
    /// its documents are disposed (which a caller done with a page does, returning the parser's pooled buffers).
    /// </summary>
    [Benchmark(Description = "SQLite: Tag:Item, PageSize 1024, read cartId")]
    public long SeedQuery()
    {
        long sum = 0;
        using (var transaction = _store.Connection.BeginTransaction(deferred: true))
        {
            var total = Count(transaction);
            _query.Transaction = transaction;
            using (var reader = _query.ExecuteReader())
            {
                while (reader.Read())
                    _page.Add(SqliteDocument.Read(reader));
            }
            transaction.Commit();
            foreach (var document in _page)
                sum += document.Data.GetProperty("cartId").GetInt64();
            if (total != Carts || _page.Count != Carts || sum != 666L * Carts)
                throw new InvalidOperationException($"Wrong result: total {total}, {_page.Count} documents, sum {sum}.");
        }
        foreach (var document in _page)
            document.Dispose();
        _page.Clear();
        return sum;
    }

    /// <summary>The same count and page with each row's key, metadata and data read as UTF-8 JSON text, unparsed.</summary>
    [Benchmark(Description = "SQLite: same page, JSON text only (no parse)")]
    public long JsonTextOnly()
    {
        using var transaction = _store.Connection.BeginTransaction(deferred: true);
        var total = Count(transaction);
        _query.Transaction = transaction;
        long rows = 0, dataBytes = 0;
        using (var reader = _query.ExecuteReader())
        {
            while (reader.Read())
            {
                var key = reader.GetString(0);
                var metadata = reader.GetFieldValue<byte[]>(1);
                var data = reader.GetFieldValue<byte[]>(2);
                if (key.Length == 0 || metadata.Length == 0)
                    throw new InvalidOperationException("Empty key or metadata.");
                rows++;
                dataBytes += data.Length;
            }
        }
        transaction.Commit();
        // The seed cart's JSON is ASCII, so its length in chars is its length in UTF-8 bytes.
        if (total != Carts || rows != Carts || dataBytes != (long)Carts * SqliteDocumentStore.SeedCartJson.Length)
            throw new InvalidOperationException($"Wrong result: total {total}, {rows} rows, {dataBytes} data bytes.");
        return dataBytes;
    }

    private long Count(SqliteTransaction transaction)
    {
        _count.Transaction = transaction;
        return (long)_count.ExecuteScalar()!;
    }

    private SqliteCommand Prepare(string sql, int? pageSize)
    {
        var command = _store.Connection.CreateCommand();
        command.CommandText = sql;
        command.Parameters.AddWithValue("$entity", "Item");
        if (pageSize is { } size)
            command.Parameters.AddWithValue("$pageSize", size);
        command.Prepare();
        return command;
    }
}
