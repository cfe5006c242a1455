using LiteDB;
using Newtonsoft.Json;
using RavenLite.Benchmarks.Client;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// The seed carts as LiteDB users keep typed objects: one <see cref="LiteCollection{T}"/> of <see cref="Cart"/> (LiteDB's
/// own mapper), each document with a <c>Tag</c> field beside the cart's members (<c>Item</c>, or <c>User</c> for 1,024
/// small user documents), indexed before loading; a direct connection to a file in a fresh temp folder, checkpointed
/// after loading, deleted on dispose.
/// </summary>
internal sealed class LiteDbTypedCarts : IDisposable
{
    public const string Collection = "typed";
    private readonly string _directory = BenchmarkFolders.NewTemp();

    public LiteDbTypedCarts(int carts, int others)
    {
        Directory.CreateDirectory(_directory);
        Database = new LiteDatabase(new ConnectionString { Filename = Path.Combine(_directory, "typed.db"), Connection = ConnectionType.Direct });
        try
        {
            var documents = Database.GetCollection(Collection);
            if (!documents.EnsureIndex("Tag", "$.Tag"))
                throw new InvalidOperationException("LiteDB did not create the Tag index.");
            var seed = JsonConvert.DeserializeObject<Cart>(SqliteDocumentStore.SeedCartJson)!;
            var batch = new List<BsonDocument>(carts + others);
            for (var i = 0; i < carts; i++)
            {
                seed.Id = $"carts/{i}";
                var document = Database.Mapper.ToDocument(seed);
                document["Tag"] = "Item";
                batch.Add(document);
            }
            for (var i = 0; i < others; i++)
                batch.Add(new BsonDocument { ["_id"] = $"users/{carts + i}", ["Tag"] = "User", ["name"] = "someone" });
            documents.InsertBulk(batch);
            Database.Checkpoint();
            Carts = Database.GetCollection<Cart>(Collection);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public LiteDatabase Database { get; }

    public ILiteCollection<Cart> Carts { get; } = null!;

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
