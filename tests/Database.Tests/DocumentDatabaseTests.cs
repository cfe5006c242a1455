using Newtonsoft.Json.Linq;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests;

public sealed class DocumentDatabaseTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private DocumentDatabase Open() => new(new DocumentDatabaseOptions { DataDirectory = _dir });

    [Fact]
    public void Seed_cart_put_1024_times_reads_back_and_counts_as_Item()
    {
        var seed = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.bson"));
        var metadata = DocumentContent.FromBson(seed.AsSpan(0, 33));
        var data = DocumentContent.FromBson(seed.AsSpan(33));
        using (var db = Open())
        {
            db.Batch(Enumerable.Range(0, 1024).Select(i => BatchCommand.Put($"carts/{i}", data, metadata)).ToList());
        }

        using var reopened = Open();
        var docs = reopened.Get(Enumerable.Range(0, 1024).Select(i => $"carts/{i}").ToList());
        Assert.All(docs, d => Assert.Equal(666, d!.Data.GetProperty("cartId").GetInt64()));
        var stats = reopened.GetStatistics();
        Assert.Equal(1024, stats.Documents);
        Assert.Equal(1024, stats.ByEntityName["Item"]);
    }

    [Fact]
    public void Put_get_delete_through_the_embedded_api()
    {
        using var db = Open();
        var put = db.Put("users/1", JObject.Parse("""{"name":"Ayende"}"""), new JObject { ["Raven-Entity-Name"] = "User" });
        var user = db.Get("USERS/1")!;
        Assert.Equal(put.Etag, user.Etag);
        Assert.Equal("Ayende", user.Data.GetProperty("name").GetString());
        Assert.Throws<ConcurrencyException>(() => db.Delete("users/1", put.Etag + 10));
        Assert.True(db.Delete("users/1", put.Etag));
        Assert.Null(db.Get("users/1"));
    }

    [Fact]
    public void Changing_a_returned_copy_never_changes_the_stored_document()
    {
        using var db = Open();
        db.Put("d", JObject.Parse("""{"list":[{"x":1}]}"""));
        var copy = db.Get("d")!.ToJObject();
        ((JObject)copy["list"]![0]!)["x"] = 99;
        Assert.Equal(1, db.Get("d")!.Data.GetProperty("list")[0].GetProperty("x").GetInt32());
    }

    [Fact]
    public void Dispose_is_idempotent_and_releases_the_folder()
    {
        var db = Open();
        Assert.Throws<IOException>(Open);
        db.Dispose();
        db.Dispose();
        using var again = Open();
        Assert.Equal(0, again.GetStatistics().Documents);
    }

    [Fact]
    public void Esent_without_its_package_is_refused_naming_the_package_and_leaves_the_folder_usable()
    {
        // This test project does not reference RavenLite.Storage.Esent, as an application without the package.
        var ex = Assert.Throws<InvalidOperationException>(() =>
            new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, Engine = StorageEngineKind.Esent }));
        Assert.Contains("RavenLite.Storage.Esent", ex.Message, StringComparison.Ordinal);
        using var lmdb = Open();
        Assert.Equal(0, lmdb.GetStatistics().Documents);
    }
}
