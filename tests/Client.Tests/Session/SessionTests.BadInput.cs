using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public void Load_with_a_null_id_throws_ArgumentNullException()
    {
        using var session = Store.OpenSession();
        Assert.Throws<ArgumentNullException>(() => session.Load<Cart>((string)null!));
        Assert.Throws<ArgumentNullException>(() => session.Load<Cart>(["carts/1", null!]));
        Assert.Equal(0, session.NumberOfRequests);
    }

    [Fact]
    public void Ids_over_the_key_limit_are_refused_before_anything_is_sent()
    {
        var id = "carts/" + new string('x', 250);
        using var session = Store.OpenSession();
        var load = Assert.Throws<ArgumentException>(() => session.Load<Cart>(id));
        Assert.Contains("255 bytes", load.Message, StringComparison.Ordinal);
        var store = Assert.Throws<ArgumentException>(() => session.Store(NewCart("long"), id));
        Assert.Contains("255 bytes", store.Message, StringComparison.Ordinal);
        session.SaveChanges();
        Assert.Equal(0, session.NumberOfRequests);
    }

    [Fact]
    public void An_entity_that_cannot_be_serialized_is_refused_and_not_tracked()
    {
        var loop = new SelfReference { Id = "loops/1" };
        loop.Self = loop;
        using var session = Store.OpenSession();
        var error = Assert.Throws<ArgumentException>(() => session.Store(loop));
        Assert.Contains("loops/1", error.Message, StringComparison.Ordinal);
        Assert.Null(session.GetIdFor(loop));
        // Serialized on the same thread after the failure, which left part of the loop in the thread's writer.
        session.Store(NewCart("fine"), "carts/fine");
        session.SaveChanges();
        Assert.Equal("fine", Reload<Cart>("carts/fine")!.Customer);
    }

    [Fact]
    public void An_entity_that_is_not_a_JSON_object_is_refused()
    {
        using var session = Store.OpenSession();
        var error = Assert.Throws<ArgumentException>(() => session.Store(new List<int> { 1, 2 }, "lists/1"));
        Assert.Contains("JSON object", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_entity_changed_into_one_that_cannot_be_serialized_fails_the_save_and_writes_nothing()
    {
        using var session = Store.OpenSession();
        var loop = new SelfReference();
        session.Store(loop, "loops/2");
        session.Store(NewCart("beside it"), "carts/beside");
        loop.Self = loop;
        Assert.Throws<ArgumentException>(session.SaveChanges);
        Assert.Null(Reload<Cart>("carts/beside"));
    }
}
