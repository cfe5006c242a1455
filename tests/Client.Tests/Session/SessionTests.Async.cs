using RavenLite.Client.Tests.Infrastructure;
using RavenLite.Indexing;
using RavenLite.Storage;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public async Task Async_load_change_and_save_round_trip_with_the_identity_map()
    {
        Seed("carts/1", "carts/2");
        using var session = Store.OpenSession();
        var cart = await session.LoadAsync<Cart>("carts/1");
        var both = await session.LoadAsync<Cart>(["carts/2", "carts/1", "carts/none"]);
        Assert.Same(cart, both[1]);
        Assert.Null(both[2]);
        cart!.Total = 11;
        await session.SaveChangesAsync();
        Assert.Equal(3, session.NumberOfRequests);
        Assert.Equal(11, Reload<Cart>("carts/1")!.Total);
    }

    [Fact]
    public async Task Async_save_with_a_conflict_throws_ConcurrencyException_and_writes_nothing()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.UseOptimisticConcurrency = true;
        var cart = await session.LoadAsync<Cart>("carts/1");
        Seed("carts/1"); // rewritten meanwhile
        cart!.Total = 12;
        session.Store(NewCart("new"), "carts/new");
        await Assert.ThrowsAsync<ConcurrencyException>(() => session.SaveChangesAsync());
        Assert.Null(Reload<Cart>("carts/new"));
    }

    [Fact]
    public async Task Async_queries_page_stream_and_fail_like_the_synchronous_ones()
    {
        await SeedTotalsAsync(10);
        using var session = Store.OpenSession();
        var page = await session.Query<Cart>(ByTotal).OrderBy("Total").Skip(1).Take(2)
            .WaitForNonStaleResults().Statistics(out var stats).ToListAsync();
        Assert.Equal([2, 3], page.Select(c => c.Total));
        Assert.Equal(10, stats.TotalResults);
        var streamed = new List<int>();
        await foreach (var cart in session.Query<Cart>(ByTotal).OrderByDescending("Total").Take(4).StreamAsync())
            streamed.Add(cart.Total);
        Assert.Equal([10, 9, 8, 7], streamed);
        await Assert.ThrowsAsync<IndexNotFoundException>(() => session.Query<Cart>("No/Such").ToListAsync());
    }
}
