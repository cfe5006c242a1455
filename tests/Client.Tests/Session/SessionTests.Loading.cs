using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public void Store_then_load_in_a_new_session_reads_back_equal()
    {
        using (var session = Store.OpenSession())
        {
            session.Store(NewCart("ayende", 3), "carts/ayende");
            session.SaveChanges();
        }
        var cart = Reload<Cart>("CARTS/AYENDE");
        Assert.NotNull(cart);
        Assert.Equal("carts/ayende", cart.Id);
        Assert.Equal("ayende", cart.Customer);
        Assert.Equal(3, cart.Total);
        Assert.Equal(6.66, Assert.Single(cart.Items).Price);
    }

    [Fact]
    public void Store_generates_ids_from_the_entity_prefix_and_sets_them_on_the_entity()
    {
        using var session = Store.OpenSession();
        var first = NewCart("a");
        var second = NewCart("b");
        session.Store(first);
        session.Store(second);
        session.SaveChanges();
        Assert.Equal("carts/1", first.Id);
        Assert.Equal("carts/2", second.Id);
        Assert.Equal("b", Reload<Cart>("carts/2")!.Customer);
    }

    [Fact]
    public void Generated_ids_never_repeat_across_stores_and_after_a_restart()
    {
        var ids = new List<string>();
        using var other = Fixture.OpenAnotherStore();
        foreach (var store in new[] { Store, other, Store, other })
        {
            using var session = store.OpenSession();
            for (var i = 0; i < 40; i++) // more than one block of 32 per store
            {
                var cart = NewCart("c" + i);
                session.Store(cart);
                ids.Add(cart.Id!);
            }
            session.SaveChanges();
        }
        // A restarted application starts with an empty generator: it must reserve past every block given out.
        using (var restarted = Fixture.OpenAnotherStore())
        using (var session = restarted.OpenSession())
        {
            var cart = NewCart("after restart");
            session.Store(cart);
            session.SaveChanges();
            ids.Add(cart.Id!);
        }
        Assert.Equal(ids.Count, ids.Distinct(StringComparer.OrdinalIgnoreCase).Count());
        Assert.All(ids, id => Assert.StartsWith("carts/", id, StringComparison.Ordinal));
    }

    [Fact]
    public void Loading_the_same_id_twice_gives_the_same_instance_in_one_request()
    {
        Seed("carts/1", "carts/2");
        using var session = Store.OpenSession();
        var first = session.Load<Cart>("carts/1");
        var again = session.Load<Cart>("CARTS/1");
        Assert.NotNull(first);
        Assert.Same(first, again);
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public void Load_of_many_ids_is_one_request_in_order_with_nulls_and_reuses_tracked_entities()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using var session = Store.OpenSession();
        var tracked = session.Load<Cart>("carts/2");
        var carts = session.Load<Cart>(["carts/3", "carts/missing", "carts/2", "carts/1"]);
        Assert.Equal(2, session.NumberOfRequests);
        Assert.Equal("carts/3", carts[0]!.Id);
        Assert.Null(carts[1]);
        Assert.Same(tracked, carts[2]);
        Assert.Equal("carts/1", carts[3]!.Id);
        session.Load<Cart>(["carts/1", "carts/2"]);
        Assert.Equal(2, session.NumberOfRequests); // all tracked: no round trip
    }

    [Fact]
    public void Load_of_a_missing_document_is_null()
    {
        using var session = Store.OpenSession();
        Assert.Null(session.Load<Cart>("carts/none"));
    }

    [Fact]
    public void Polymorphic_load_creates_the_stored_type_only_when_asked()
    {
        using (var session = Store.OpenSession())
        {
            session.Store(new Dog { Name = "Rex", Breed = "collie" }, "animals/rex");
            session.SaveChanges();
        }
        Assert.IsNotType<Dog>(Reload<Animal>("animals/rex"));
        using var polymorphic = Fixture.OpenAnotherStore(new StoreConventions { UseClrTypeOnLoad = true });
        using var typed = polymorphic.OpenSession();
        var dog = Assert.IsType<Dog>(typed.Load<Animal>("animals/rex"));
        Assert.Equal("collie", dog.Breed);
        Assert.Equal("animals/rex", dog.Id);
    }

    [Theory]
    [InlineData("RavenLite.Client.Tests.Infrastructure.SelfReference, RavenLite.Client.Tests")] // not an Animal
    [InlineData("Some.Type, An.Assembly.Nobody.Loaded")]
    [InlineData("not a type name at all [[")]
    public async Task Polymorphic_load_ignores_a_stored_type_that_is_not_a_loaded_subtype(string clrType)
    {
        await Fixture.PutRawAsync("animals/odd", """{"Name":"odd"}""", "Animal", clrType);
        using var polymorphic = Fixture.OpenAnotherStore(new StoreConventions { UseClrTypeOnLoad = true });
        using var session = polymorphic.OpenSession();
        var animal = session.Load<Animal>("animals/odd");
        Assert.Equal(typeof(Animal), animal!.GetType());
        Assert.Equal("odd", animal.Name);
    }

    [Fact]
    public void Loading_a_tracked_id_as_an_unrelated_type_throws_InvalidCastException()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.Load<Cart>("carts/1");
        var error = Assert.Throws<InvalidCastException>(() => session.Load<Animal>("carts/1"));
        Assert.Contains("carts/1", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Session_refuses_requests_past_its_limit_with_a_clear_error()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using var session = Store.OpenSession();
        session.MaxNumberOfRequests = 2;
        session.Load<Cart>("carts/1");
        session.Load<Cart>("carts/2");
        var error = Assert.Throws<InvalidOperationException>(() => session.Load<Cart>("carts/3"));
        Assert.Contains("maximum of 2 requests", error.Message, StringComparison.Ordinal);
        Assert.NotNull(session.Load<Cart>("carts/1")); // tracked: no request needed
    }

    /// <summary>Stores one cart per id (customer = the id) in one save.</summary>
    protected void Seed(params string[] ids)
    {
        using var session = Store.OpenSession();
        foreach (var id in ids)
            session.Store(NewCart(id), id);
        session.SaveChanges();
    }
}
