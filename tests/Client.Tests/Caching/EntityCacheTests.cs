using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Caching;

/// <summary>
/// The entity cache through the sessions, against the embedded store and a remote one: copies are isolated, a newer
/// version is never served from an older entry, fallback types load correctly, and SaveChanges writes exactly what changed.
/// </summary>
public abstract partial class EntityCacheTests : StoreTests
{
    [Fact]
    public void A_mutated_copy_never_reaches_another_session_or_the_cache()
    {
        Seed("carts/1");
        using (var first = Store.OpenSession())
        {
            var cart = first.Load<Cart>("carts/1")!;
            cart.Customer = "changed, never saved";
            cart.Items[0].Price = 1000;
            cart.Items.Add(new Item { ProductId = 1 });
        }
        using var second = Store.OpenSession();
        var again = second.Load<Cart>("carts/1")!;
        Assert.Equal("carts/1", again.Customer);
        Assert.Single(again.Items);
        Assert.Equal(6.66, again.Items[0].Price);
        Assert.True(Store.Entities.Cache.Hits > 0, "the second load should be served from the entity cache");
    }

    [Fact]
    public void Sessions_on_many_threads_each_get_an_unchanged_copy_however_the_others_change_theirs()
    {
        Seed("carts/1", "carts/2");
        Parallel.For(0, 200, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
        {
            using var session = Store.OpenSession();
            var carts = session.Load<Cart>(["carts/1", "carts/2"]);
            foreach (var cart in carts)
            {
                Assert.Equal(1, cart!.Total);
                Assert.Equal(6.66, Assert.Single(cart.Items).Price);
                cart.Total = i;
                cart.Items.Add(new Item { ProductId = i });
            }
        });
    }

    [Fact]
    public void A_warm_query_finds_each_entity_kept_on_its_version_without_a_lookup_and_a_new_version_is_read_again()
    {
        Seed("carts/1", "carts/2");
        int Query()
        {
            using var session = Store.OpenSession();
            return session.Query<Cart>().WaitForNonStaleResults().ToList().Sum(cart => cart.Total);
        }
        Assert.Equal(2, Query());
        var (hits, kept) = (Store.Entities.Cache.Hits, Store.Entities.Cache.KeptHits);
        Assert.Equal(2, Query());
        Assert.Equal(hits + 2, Store.Entities.Cache.Hits);
        Assert.Equal(kept + 2, Store.Entities.Cache.KeptHits);
        using (var session = Store.OpenSession())
        {
            session.Load<Cart>("carts/2")!.Total = 40;
            session.SaveChanges();
        }
        Assert.Equal(41, Query());
        Assert.Equal(41, Query());
    }

    [Fact]
    public void Two_sessions_get_different_instances_of_the_same_entity()
    {
        Seed("carts/1");
        using var first = Store.OpenSession();
        using var second = Store.OpenSession();
        var a = first.Load<Cart>("carts/1")!;
        var b = second.Load<Cart>("carts/1")!;
        Assert.NotSame(a, b);
        Assert.NotSame(a.Items, b.Items);
        Assert.NotSame(a.Items[0], b.Items[0]);
        Assert.Equal(a.Items[0].Name, b.Items[0].Name);
    }

    [Fact]
    public async Task A_document_written_after_the_entity_was_cached_is_never_served_from_the_old_entry()
    {
        Seed("carts/1");
        Assert.Equal(1, LoadTotal("carts/1"));
        await Fixture.PutRawAsync("carts/1", """{"Customer":"another program","Total":2,"Items":[]}""", "Cart");
        Assert.Equal(2, LoadTotal("carts/1"));
        using (var session = Store.OpenSession())
        {
            session.Load<Cart>("carts/1")!.Total = 3;
            session.SaveChanges();
        }
        Assert.Equal(3, LoadTotal("carts/1"));
        using var query = Store.OpenSession();
        Assert.Equal(3, Assert.Single(query.Query<Cart>().WaitForNonStaleResults().ToList()).Total);
    }

    [Fact]
    public void Query_results_are_copies_too()
    {
        Seed("carts/1", "carts/2");
        using (var first = Store.OpenSession())
        {
            foreach (var cart in first.Query<Cart>().WaitForNonStaleResults().ToList())
                cart.Items.Clear();
        }
        using var second = Store.OpenSession();
        var carts = second.Query<Cart>().WaitForNonStaleResults().ToList();
        Assert.Equal(2, carts.Count);
        Assert.All(carts, cart => Assert.Single(cart.Items));
    }

    [Fact]
    public void Streamed_results_are_read_from_the_cache_but_not_added_to_it()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using (var wait = Store.OpenSession())
            wait.Query<Cart>().WaitForNonStaleResults().Take(0).ToList();
        var before = Store.Entities.Cache.Count;
        using var session = Store.OpenSession();
        Assert.Equal(3, session.Query<Cart>().Stream().Count());
        Assert.Equal(before, Store.Entities.Cache.Count);
    }

    protected void Seed(params string[] ids)
    {
        using var session = Store.OpenSession();
        foreach (var id in ids)
            session.Store(new Cart { Customer = id, Total = 1, Items = [new Item { ProductId = 42, Name = "brimstone", Price = 6.66 }] }, id);
        session.SaveChanges();
    }

    private int LoadTotal(string id)
    {
        using var session = Store.OpenSession();
        return session.Load<Cart>(id)!.Total;
    }
}

public sealed class EmbeddedEntityCacheTests : EntityCacheTests
{
    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteEntityCacheTests : EntityCacheTests
{
    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
