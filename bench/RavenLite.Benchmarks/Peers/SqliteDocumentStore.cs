using System.Text;
using Microsoft.Data.Sqlite;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Documents kept the way a SQLite user keeps JSON documents: one row per document, key, metadata and data as JSON
/// text, optionally an expression index on the entity name. A file database in WAL mode with synchronous=FULL
/// (RavenLite syncs every batch), in a fresh temp folder deleted on dispose.
/// </summary>
internal sealed class SqliteDocumentStore : IDisposable
{
    public const int BatchSize = 1000;
    public const string EntityIndex = "docs_entity";
    public const string EntityName = "json_extract(metadata, '$.\"Raven-Entity-Name\"')";
    private const string InsertSql = "INSERT INTO docs(key, metadata, data) VALUES ($key, $metadata, $data)";
    private static int s_versionPrinted;
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-bench", Guid.NewGuid().ToString("N"));

    /// <summary>The seed cart's data and metadata as JSON text, converted from testdata/seed-cart.bson once.</summary>
    public static string SeedCartJson { get; } = ToJson(SeedCart.Data);

    public static string SeedCartMetadataJson { get; } = ToJson(SeedCart.Metadata);

    public SqliteDocumentStore(bool entityIndex)
    {
        Directory.CreateDirectory(_directory);
        var path = Path.Combine(_directory, "docs.db");
        // No pooling: the connection really closes on dispose, so the folder can be deleted.
        Connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        Connection.Open();
        if (!"wal".Equals(Scalar("PRAGMA journal_mode=WAL") as string, StringComparison.Ordinal))
            throw new InvalidOperationException("SQLite did not switch to WAL mode.");
        Execute("PRAGMA synchronous=FULL");
        Execute("CREATE TABLE docs(key TEXT PRIMARY KEY COLLATE NOCASE, metadata TEXT NOT NULL, data TEXT NOT NULL)");
        if (entityIndex)
            Execute("CREATE INDEX " + EntityIndex + " ON docs(" + EntityName + ")");
        if (Interlocked.Exchange(ref s_versionPrinted, 1) == 0)
            Console.WriteLine($"SQLite version {Scalar("SELECT sqlite_version()")}");
    }

    public SqliteConnection Connection { get; }

    /// <summary>The read benchmarks' data: 1,024 seed carts (Item) and 1,024 small User documents, checkpointed.</summary>
    public static SqliteDocumentStore WithSeedData(int carts)
    {
        var store = new SqliteDocumentStore(entityIndex: true);
        store.PutAll(Keys("carts/", 0, carts), SeedCartMetadataJson, SeedCartJson);
        store.PutAll(Keys("users/", carts, carts), """{"Raven-Entity-Name": "User"}""",
            """{"name": "someone", "email": "someone@example.com", "visits": 3}""");
        store.Checkpoint();
        return store;
    }

    public static string[] Keys(string prefix, int start, int count) =>
        Enumerable.Range(start, count).Select(i => $"{prefix}{i}").ToArray();

    /// <summary>Writes every key with the same metadata and data: one prepared INSERT, one transaction per batch.</summary>
    public int PutAll(IReadOnlyList<string> keys, string metadata, string data)
    {
        using var insert = Connection.CreateCommand();
        insert.CommandText = InsertSql;
        var keyParameter = insert.Parameters.Add("$key", SqliteType.Text);
        var metadataParameter = insert.Parameters.Add("$metadata", SqliteType.Text);
        var dataParameter = insert.Parameters.Add("$data", SqliteType.Text);
        insert.Prepare();
        var written = 0;
        for (var start = 0; start < keys.Count; start += BatchSize)
        {
            using var transaction = Connection.BeginTransaction();
            insert.Transaction = transaction;
            for (var i = start; i < Math.Min(start + BatchSize, keys.Count); i++)
            {
                keyParameter.Value = keys[i];
                metadataParameter.Value = metadata;
                dataParameter.Value = data;
                written += insert.ExecuteNonQuery();
            }
            transaction.Commit();
        }
        return written;
    }

    /// <summary>Moves the WAL into the database file and empties it, so measuring starts from a settled file.</summary>
    public void Checkpoint()
    {
        using var command = Connection.CreateCommand();
        command.CommandText = "PRAGMA wal_checkpoint(TRUNCATE)";
        using var reader = command.ExecuteReader();
        if (!reader.Read() || reader.GetInt32(0) != 0)
            throw new InvalidOperationException("The WAL checkpoint could not complete.");
    }

    /// <summary>Throws unless SQLite's plan for the prepared command uses the index, so a silent scan fails the run.</summary>
    public string RequirePlanUses(SqliteCommand command, string index)
    {
        using var explain = Connection.CreateCommand();
        explain.CommandText = "EXPLAIN QUERY PLAN " + command.CommandText;
        foreach (SqliteParameter parameter in command.Parameters)
            explain.Parameters.AddWithValue(parameter.ParameterName, parameter.Value);
        var plan = new StringBuilder();
        using (var reader = explain.ExecuteReader())
        {
            while (reader.Read())
                plan.AppendLine(reader.GetString(3));
        }
        var text = plan.ToString();
        if (!text.StartsWith("SEARCH docs USING ", StringComparison.Ordinal) || !text.Contains($"INDEX {index} (", StringComparison.Ordinal))
            throw new InvalidOperationException($"Expected a search with {index} for \"{command.CommandText}\", the plan is: {text}");
        return text;
    }

    public void Dispose()
    {
        Connection.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private void Execute(string sql)
    {
        using var command = Connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private object? Scalar(string sql)
    {
        using var command = Connection.CreateCommand();
        command.CommandText = sql;
        return command.ExecuteScalar();
    }

    private static string ToJson(ReadOnlyMemory<byte> bson)
    {
        using var reader = new BsonDataReader(new MemoryStream(bson.ToArray()));
        return JObject.Load(reader).ToString(Formatting.None);
    }
}
