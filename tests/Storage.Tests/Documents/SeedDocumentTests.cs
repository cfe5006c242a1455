using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Documents;

public sealed class SeedDocumentTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void The_seed_cart_round_trips_byte_identically(StorageEngineKind engine)
    {
        Assert.Equal(735, SeedCart.Bytes.Length);
        using var store = StoreFactory.Open(engine, _dir.Path);
        store.Put("carts/666", DocumentContent.FromBson(SeedCart.Data), DocumentContent.FromBson(SeedCart.Metadata));

        var raw = store.GetRaw("carts/666")!;
        Assert.Equal(SeedCart.Metadata.ToArray(), raw.MetadataBson.ToArray());
        Assert.Equal(SeedCart.Data.ToArray(), raw.DataBson.ToArray());

        var doc = store.Get("carts/666")!;
        Assert.Equal("Item", doc.EntityName);
        Assert.Equal(666, doc.Data.GetProperty("cartId").GetInt64());
        var items = doc.Data.GetProperty("itemList");
        Assert.Equal(8, items.GetArrayLength());
        Assert.Equal(6.66, items[7].GetProperty("price").GetDouble());
        Assert.Equal(2000, items[0].GetProperty("quantity").GetInt64());
        Assert.Equal(1, store.GetCounts().ByEntityName["Item"]);
    }
}
