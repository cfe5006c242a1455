using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Caching;

public abstract partial class EntityCacheTests
{
    [Fact]
    public void SaveChanges_writes_exactly_the_entities_that_changed_however_deep_the_change()
    {
        var ids = Enumerable.Range(1, 6).Select(i => $"carts/{i}").ToArray();
        Seed(ids);
        using var session = Store.OpenSession();
        var carts = session.Load<Cart>(ids);
        var before = carts.Select(c => session.GetEtagFor(c!)).ToArray();
        carts[0]!.Customer = "top level";
        carts[2]!.Items[0].Price = 1.25;
        carts[4]!.Items.Add(new Item { ProductId = 5 });
        session.SaveChanges();
        var changed = Enumerable.Range(0, 6).Where(i => session.GetEtagFor(carts[i]!) != before[i]).ToArray();
        Assert.Equal([0, 2, 4], changed);
        using var check = Store.OpenSession();
        var stored = check.Load<Cart>(ids);
        Assert.Equal([.. before.Select((etag, i) => changed.Contains(i) ? session.GetEtagFor(carts[i]!) : etag)], stored.Select(c => check.GetEtagFor(c!)));
        Assert.Equal(1.25, stored[2]!.Items[0].Price);
        Assert.Equal(2, stored[4]!.Items.Count);
    }

    [Fact]
    public void SaveChanges_with_loaded_entities_unchanged_sends_nothing_and_neither_does_a_second_save()
    {
        Seed("carts/1", "carts/2");
        using var session = Store.OpenSession();
        session.Load<Cart>(["carts/1", "carts/2"]);
        session.Query<Cart>().WaitForNonStaleResults().ToList();
        var requests = session.NumberOfRequests;
        session.SaveChanges();
        session.SaveChanges();
        Assert.Equal(requests, session.NumberOfRequests);
    }

    [Fact]
    public void A_change_put_back_as_it_was_is_not_written()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        var cart = session.Load<Cart>("carts/1")!;
        cart.Items = [new Item { ProductId = 42, Name = "brimstone", Price = 6.66 }];
        session.SaveChanges();
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public void After_a_save_further_changes_are_written_and_no_change_is_not()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        var cart = session.Load<Cart>("carts/1")!;
        cart.Total = 5;
        session.SaveChanges();
        session.SaveChanges();
        Assert.Equal(2, session.NumberOfRequests);
        cart.Items[0].Name = "sulphur";
        session.SaveChanges();
        Assert.Equal(3, session.NumberOfRequests);
        using var check = Store.OpenSession();
        Assert.Equal("sulphur", check.Load<Cart>("carts/1")!.Items[0].Name);
    }
}
