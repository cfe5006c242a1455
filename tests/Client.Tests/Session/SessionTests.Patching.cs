using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public void Patch_and_increment_are_sent_with_SaveChanges_in_one_request()
    {
        using (var setup = Store.OpenSession())
        {
            setup.Store(NewCart("ayende", total: 10), "carts/p1");
            setup.SaveChanges();
        }

        using var session = Store.OpenSession();
        var cart = session.Load<Cart>("carts/p1")!;
        session.Advanced.Patch(cart, x => x.Customer, "oren");
        session.Advanced.Increment(cart, x => x.Total, 5);
        session.Advanced.Patch<Cart, string?>("carts/p1", x => x.Items[0].Name, "sulphur");
        session.Store(NewCart("other"), "carts/p2");
        session.SaveChanges();

        Assert.Equal(2, session.NumberOfRequests);
        var stored = Reload<Cart>("carts/p1")!;
        Assert.Equal("oren", stored.Customer);
        Assert.Equal(15, stored.Total);
        Assert.Equal("sulphur", stored.Items[0].Name);
        Assert.NotNull(Reload<Cart>("carts/p2"));
    }

    [Fact]
    public void A_patch_value_holding_half_of_a_character_throws_ArgumentException_and_changes_nothing()
    {
        using (var setup = Store.OpenSession())
        {
            setup.Store(NewCart("whole"), "carts/half");
            setup.SaveChanges();
        }
        using (var session = Store.OpenSession())
        {
            session.Advanced.Patch<Cart, string?>("carts/half", x => x.Customer, "a\ud800b");
            var refused = Assert.Throws<ArgumentException>(session.SaveChanges);
            Assert.Contains("unpaired UTF-16 surrogate, U+D800", refused.Message, StringComparison.Ordinal);
        }
        Assert.Equal("whole", Reload<Cart>("carts/half")!.Customer);
        var byQuery = Assert.Throws<ArgumentException>(() =>
            Store.Operations.PatchByQueryAsync("Raven/DocumentsByEntityName", "Tag:Carts", """[{"op":"replace","path":"/Customer","value":"a""" + "\ud800" + """b"}]""")
                .GetAwaiter().GetResult());
        Assert.Contains("unpaired UTF-16 surrogate", byQuery.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Concurrent_session_increments_from_8_writers_lose_none()
    {
        using (var setup = Store.OpenSession())
        {
            setup.Store(NewCart("counter", total: 0), "carts/counter");
            setup.SaveChanges();
        }

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            for (var i = 0; i < 25; i++)
            {
                using var session = Store.OpenSession();
                session.Advanced.Increment<Cart, int>("carts/counter", x => x.Total, 1);
                await session.SaveChangesAsync();
            }
        })));

        Assert.Equal(200, Reload<Cart>("carts/counter")!.Total);
    }

    [Fact]
    public void A_patch_that_cannot_apply_fails_the_whole_batch()
    {
        using (var setup = Store.OpenSession())
        {
            setup.Store(NewCart("ayende"), "carts/p3");
            setup.SaveChanges();
        }

        using var session = Store.OpenSession();
        session.Store(NewCart("new"), "carts/p4");
        session.Advanced.Increment<Cart, int>("carts/p3", x => x.Total, 1);
        session.Advanced.Patch<Cart, string>("carts/p3", x => x.Items[5].Name!, "no such line");

        Assert.Throws<PatchException>(() => session.SaveChanges());
        Assert.Null(Reload<Cart>("carts/p4"));
        Assert.Equal(1, Reload<Cart>("carts/p3")!.Total);
    }

    [Fact]
    public void Patching_an_untracked_entity_or_by_a_non_member_path_is_refused()
    {
        using var session = Store.OpenSession();
        Assert.Throws<InvalidOperationException>(() => session.Advanced.Patch(NewCart("x"), x => x.Customer, "y"));
        Assert.Throws<ArgumentException>(() => session.Advanced.Patch<Cart, string>("carts/p5", x => x.Customer!.ToUpperInvariant(), "y"));
        Assert.Equal(0, session.NumberOfRequests);
    }
}
