using RavenLite.Client.Tests.Infrastructure;
using RavenLite.Storage;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public void SaveChanges_writes_only_the_documents_that_changed()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using var session = Store.OpenSession();
        var carts = session.Load<Cart>(["carts/1", "carts/2", "carts/3"]);
        var before = carts.Select(c => session.GetEtagFor(c!)).ToArray();
        carts[1]!.Total = 99;
        session.SaveChanges();
        Assert.Equal(before[0], session.GetEtagFor(carts[0]!));
        Assert.NotEqual(before[1], session.GetEtagFor(carts[1]!));
        Assert.Equal(before[2], session.GetEtagFor(carts[2]!));
        Assert.Equal(99, Reload<Cart>("carts/2")!.Total);
        Assert.Equal(before[0], EtagInNewSession("carts/1"));
    }

    [Fact]
    public void SaveChanges_with_nothing_changed_makes_no_request()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.Load<Cart>("carts/1");
        session.SaveChanges();
        Assert.Equal(1, session.NumberOfRequests);
    }

    [Fact]
    public async Task A_document_written_by_another_program_is_not_rewritten_when_unchanged()
    {
        // Other member order, no Id member, another spelling of the same number, entity name not the class name.
        await Fixture.PutRawAsync("carts/raw", """{"Total":2.0,"Items":[],"Customer":"raw"}""", "Item");
        using var session = Store.OpenSession();
        var cart = session.Load<Cart>("carts/raw")!;
        var etag = session.GetEtagFor(cart);
        session.SaveChanges();
        Assert.Equal(1, session.NumberOfRequests);
        cart.Total = 3;
        session.SaveChanges();
        Assert.NotEqual(etag, session.GetEtagFor(cart));
        // The document keeps its collection: the update does not move it to Cart.
        using var query = Store.OpenSession();
        Assert.Single(query.Query<Cart>("Raven/DocumentsByEntityName").Where("Tag:Item").WaitForNonStaleResults().ToList());
    }

    [Fact]
    public void Changes_are_saved_and_the_saved_state_is_the_new_baseline()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        var cart = session.Load<Cart>("carts/1")!;
        cart.Items.Add(new Item { ProductId = 7, Name = "sulphur", Price = 1.5 });
        session.SaveChanges();
        Assert.Equal(2, session.NumberOfRequests);
        session.SaveChanges(); // nothing new since
        Assert.Equal(2, session.NumberOfRequests);
        Assert.Equal(2, Reload<Cart>("carts/1")!.Items.Count);
    }

    [Fact]
    public void Optimistic_concurrency_conflict_throws_ConcurrencyException_and_writes_nothing()
    {
        Seed("carts/1");
        using var mine = Store.OpenSession();
        mine.UseOptimisticConcurrency = true;
        var cart = mine.Load<Cart>("carts/1")!;
        using (var theirs = Store.OpenSession())
        {
            theirs.Load<Cart>("carts/1")!.Total = 50;
            theirs.SaveChanges();
        }
        cart.Total = 7;
        mine.Store(NewCart("new one"), "carts/new");
        var conflict = Assert.Throws<ConcurrencyException>(mine.SaveChanges);
        Assert.Equal("carts/1", conflict.Key);
        Assert.Equal(0, conflict.CommandIndex);
        Assert.True(conflict.ActualEtag > conflict.ExpectedEtag, $"expected {conflict.ExpectedEtag}, actual {conflict.ActualEtag}");
        Assert.Equal(50, Reload<Cart>("carts/1")!.Total);
        Assert.Null(Reload<Cart>("carts/new")); // the whole batch failed
    }

    [Fact]
    public void A_failing_command_writes_nothing_of_the_batch()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.UseOptimisticConcurrency = true;
        session.Load<Cart>("carts/1")!.Total = 70;
        session.Store(NewCart("a"), "carts/a");
        session.Store(NewCart("taken"), "carts/taken");
        Seed("carts/taken"); // another writer takes the id first: "must not exist" fails
        Assert.Throws<ConcurrencyException>(session.SaveChanges);
        Assert.Equal(1, Reload<Cart>("carts/1")!.Total);
        Assert.Null(Reload<Cart>("carts/a"));
        Assert.Equal("carts/taken", Reload<Cart>("carts/taken")!.Customer);
    }

    [Fact]
    public void Without_optimistic_concurrency_the_last_write_wins()
    {
        Seed("carts/1");
        using var mine = Store.OpenSession();
        var cart = mine.Load<Cart>("carts/1")!;
        using (var theirs = Store.OpenSession())
        {
            theirs.Load<Cart>("carts/1")!.Total = 50;
            theirs.SaveChanges();
        }
        cart.Total = 7;
        mine.SaveChanges();
        Assert.Equal(7, Reload<Cart>("carts/1")!.Total);
    }

    [Fact]
    public void Delete_by_entity_and_by_id_remove_the_documents_in_one_save()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using var session = Store.OpenSession();
        session.Delete(session.Load<Cart>("carts/1")!);
        session.Delete("carts/2");
        Assert.Null(session.Load<Cart>("carts/1"));
        Assert.Null(session.Load<Cart>("carts/2"));
        session.SaveChanges();
        Assert.Null(Reload<Cart>("carts/1"));
        Assert.Null(Reload<Cart>("carts/2"));
        Assert.NotNull(Reload<Cart>("carts/3"));
    }

    [Fact]
    public void Delete_then_store_under_the_same_id_replaces_the_document_in_one_save()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.UseOptimisticConcurrency = true;
        session.Delete(session.Load<Cart>("carts/1")!);
        var replacement = NewCart("replacement", 5);
        session.Store(replacement, "carts/1");
        Assert.Same(replacement, session.Load<Cart>("carts/1"));
        session.SaveChanges();
        Assert.Equal(2, session.NumberOfRequests);
        Assert.Equal("replacement", Reload<Cart>("carts/1")!.Customer);
    }

    [Fact]
    public void Deleting_an_object_the_session_does_not_track_throws()
    {
        using var session = Store.OpenSession();
        Assert.Throws<InvalidOperationException>(() => session.Delete(NewCart("stranger")));
    }

    [Fact]
    public void Storing_another_object_under_a_tracked_id_throws()
    {
        Seed("carts/1");
        using var session = Store.OpenSession();
        session.Load<Cart>("carts/1");
        var error = Assert.Throws<InvalidOperationException>(() => session.Store(NewCart("other"), "carts/1"));
        Assert.Contains("carts/1", error.Message, StringComparison.Ordinal);
    }

    private long? EtagInNewSession(string id)
    {
        using var session = Store.OpenSession();
        return session.Load<Cart>(id) is { } cart ? session.GetEtagFor(cart) : null;
    }
}
