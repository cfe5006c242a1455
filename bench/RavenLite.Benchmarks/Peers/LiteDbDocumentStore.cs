using LiteDB;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// Documents kept the way a LiteDB user keeps schemaless documents: one <see cref="BsonDocument"/> per document in
/// one collection, <c>{_id: key, metadata: {...}, data: {...}}</c>, optionally an index on the entity name made
/// before loading. A direct connection (this process opens the file exclusively) to a file database in a fresh temp
/// folder, deleted on dispose. LiteDB's default collation ignores case, so keys are case-insensitive as in RavenLite.
/// </summary>
internal sealed class LiteDbDocumentStore : IDisposable
{
    public const int BatchSize = 1000;
    public const string EntityIndex = "entity";
    private const string Collection = "docs";
    private const string EntityName = "$.metadata.['Raven-Entity-Name']";
    private static readonly BsonDocument s_userData = new()
    {
        ["name"] = "someone", ["email"] = "someone@example.com", ["visits"] = 3,
    };

    private static readonly BsonDocument s_userMetadata = new() { ["Raven-Entity-Name"] = "User" };
    private readonly string _directory = BenchmarkFolders.NewTemp();

    /// <summary>The seed cart's data and metadata as LiteDB documents, read from testdata/seed-cart.bson once.</summary>
    public static BsonDocument SeedCartData { get; } = BsonSerializer.Deserialize(SeedCart.Data.ToArray());

    public static BsonDocument SeedCartMetadata { get; } = BsonSerializer.Deserialize(SeedCart.Metadata.ToArray());

    public LiteDbDocumentStore(bool entityIndex)
    {
        Directory.CreateDirectory(_directory);
        Database = new LiteDatabase(new ConnectionString
        {
            Filename = Path.Combine(_directory, "docs.db"),
            Connection = ConnectionType.Direct,
        });
        Documents = Database.GetCollection(Collection);
        if (entityIndex && !Documents.EnsureIndex(EntityIndex, EntityName))
        {
            Dispose();
            throw new InvalidOperationException("LiteDB did not create the entity index.");
        }
    }

    public LiteDatabase Database { get; }

    public ILiteCollection<BsonDocument> Documents { get; }

    /// <summary>A prepared filter: the documents whose entity name is <paramref name="entity"/>.</summary>
    public static BsonExpression IsEntity(string entity) => BsonExpression.Create(EntityName + " = @0", entity);

    /// <summary>The read benchmarks' data: 1,024 seed carts (Item) and 1,024 small User documents, checkpointed.</summary>
    public static LiteDbDocumentStore WithSeedData(int carts)
    {
        var store = new LiteDbDocumentStore(entityIndex: true);
        try
        {
            store.PutAll(SqliteDocumentStore.Keys("carts/", 0, carts), SeedCartMetadata, SeedCartData);
            store.PutAll(SqliteDocumentStore.Keys("users/", carts, carts), s_userMetadata, s_userData);
            store.Database.Checkpoint();
            return store;
        }
        catch
        {
            store.Dispose();
            throw;
        }
    }

    /// <summary>Writes every key with the same metadata and data: one <c>InsertBulk</c> (one transaction) per batch.</summary>
    public int PutAll(IReadOnlyList<string> keys, BsonDocument metadata, BsonDocument data)
    {
        var written = 0;
        for (var start = 0; start < keys.Count; start += BatchSize)
        {
            var batch = new BsonDocument[Math.Min(BatchSize, keys.Count - start)];
            for (var i = 0; i < batch.Length; i++)
                batch[i] = new BsonDocument { ["_id"] = keys[start + i], ["metadata"] = metadata, ["data"] = data };
            written += Documents.InsertBulk(batch, BatchSize);
        }
        return written;
    }

    /// <summary>Throws unless LiteDB's plan for the filter seeks the entity index, so a silent scan fails the run.</summary>
    public string RequireEntityIndexSeek(BsonExpression filter)
    {
        var plan = Documents.Query().Where(filter).GetPlan();
        var index = plan["index"];
        if (index["name"].AsString != EntityIndex || !index["mode"].AsString.StartsWith("INDEX SEEK", StringComparison.Ordinal))
            throw new InvalidOperationException($"Expected a seek on the {EntityIndex} index, the plan is: {plan}");
        return plan.ToString();
    }

    public void Dispose()
    {
        try
        {
            Database.Dispose();
        }
        finally
        {
            BenchmarkFolders.Delete(_directory);
        }
    }
}
