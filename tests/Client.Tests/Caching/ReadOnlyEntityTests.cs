using RavenLite.Client.Tests.Copying;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Caching;

/// <summary>
/// Entities of read-only types (records, <c>init</c> members, read-only collections) through the sessions, embedded and
/// remote: every session gets the instance the cache holds, and a change is a changed copy stored under the same id.
/// </summary>
public abstract class ReadOnlyEntityTests : StoreTests
{
    private static Ticket NewTicket(string id, decimal price) => new(id, "opera", price, [new Seat("A", 1), new Seat("A", 2)]);

    [Fact]
    public void Sessions_share_the_cached_instance_of_a_read_only_entity()
    {
        Seed(NewTicket("tickets/1", 12.5m), NewTicket("tickets/2", 20m));
        using var first = Store.OpenSession();
        using var second = Store.OpenSession();
        var loaded = first.Load<Ticket>("tickets/1")!;
        Assert.Same(loaded, second.Load<Ticket>("tickets/1"));
        var queried = second.Query<Ticket>().WaitForNonStaleResults().ToList();
        Assert.Equal(2, queried.Count);
        Assert.Same(loaded, queried.Single(ticket => ticket.Id == "tickets/1"));
        using var third = Store.OpenSession();
        Assert.Same(queried[0], third.Query<Ticket>().ToList().Single(ticket => ticket.Id == queried[0].Id));
        Assert.Equal(12.5m, loaded.Price);
        Assert.Equal([new Seat("A", 1), new Seat("A", 2)], loaded.Seats);
    }

    [Fact]
    public void An_unchanged_read_only_entity_is_not_written()
    {
        Seed(NewTicket("tickets/1", 12.5m));
        using var session = Store.OpenSession();
        var ticket = session.Load<Ticket>("tickets/1")!;
        var etag = session.GetEtagFor(ticket);
        var requests = session.NumberOfRequests;
        session.SaveChanges();
        Assert.Equal(requests, session.NumberOfRequests);
        using var check = Store.OpenSession();
        Assert.Equal(etag, check.GetEtagFor(check.Load<Ticket>("tickets/1")!));
    }

    [Fact]
    public void Storing_a_changed_copy_replaces_the_tracked_entity_and_saves_it()
    {
        Seed(NewTicket("tickets/1", 12.5m));
        Ticket original;
        using (var session = Store.OpenSession())
        {
            original = session.Load<Ticket>("tickets/1")!;
            var changed = original with { Price = 15m };
            session.Store(changed);
            Assert.Null(session.GetIdFor(original));
            Assert.Equal("tickets/1", session.GetIdFor(changed));
            Assert.Same(changed, session.Load<Ticket>("tickets/1"));
            session.SaveChanges();
        }
        Assert.Equal(12.5m, original.Price);
        using var next = Store.OpenSession();
        var reloaded = next.Load<Ticket>("tickets/1")!;
        Assert.Equal(15m, reloaded.Price);
        Assert.NotSame(original, reloaded);
        Assert.Same(reloaded, next.Query<Ticket>().WaitForNonStaleResults().Where(x => x.Price == 15m).ToList().Single());
    }

    [Fact]
    public void A_changed_copy_of_a_version_saved_since_throws_ConcurrencyException()
    {
        Seed(NewTicket("tickets/1", 12.5m));
        using var late = Store.OpenSession();
        late.UseOptimisticConcurrency = true;
        var stale = late.Load<Ticket>("tickets/1")!;
        using (var early = Store.OpenSession())
        {
            early.Store(early.Load<Ticket>("tickets/1")! with { Price = 30m });
            early.SaveChanges();
        }
        late.Store(stale with { Price = 40m });
        Assert.Throws<ConcurrencyException>(late.SaveChanges);
        using var check = Store.OpenSession();
        Assert.Equal(30m, check.Load<Ticket>("tickets/1")!.Price);
    }

    [Fact]
    public void Storing_a_shared_instance_under_another_id_throws_and_leaves_it_as_it_was()
    {
        Seed(NewTicket("tickets/1", 12.5m));
        using var reader = Store.OpenSession();
        var shared = reader.Load<Ticket>("tickets/1")!;
        using var writer = Store.OpenSession();
        var error = Assert.Throws<ArgumentException>(() => writer.Store(shared, "tickets/2"));
        Assert.Contains("read-only", error.Message, StringComparison.Ordinal);
        Assert.Equal("tickets/1", shared.Id);
        writer.SaveChanges();
        using var check = Store.OpenSession();
        Assert.Null(check.Load<Ticket>("tickets/2"));
        Assert.Equal("tickets/1", check.Load<Ticket>("tickets/1")!.Id);
    }

    [Fact]
    public void A_new_read_only_entity_gets_a_generated_id()
    {
        string id;
        using (var session = Store.OpenSession())
        {
            var ticket = NewTicket(null!, 1m);
            session.Store(ticket);
            id = ticket.Id!;
            Assert.StartsWith("tickets/", id, StringComparison.Ordinal);
            session.SaveChanges();
        }
        using var check = Store.OpenSession();
        Assert.Equal(1m, check.Load<Ticket>(id)!.Price);
    }

    [Fact]
    public void A_class_of_init_members_with_immutable_collections_round_trips_and_is_shared()
    {
        var badge = new Badge
        {
            Id = "badges/1", Name = "gold", Tags = ["a", "b"], Scores = new Dictionary<string, int> { ["x"] = 1 },
            Issued = new Stamp(new DateTime(2026, 11, 27, 1, 2, 3, DateTimeKind.Utc), "ops"),
        };
        using (var session = Store.OpenSession())
        {
            session.Store(badge);
            session.SaveChanges();
        }
        using var first = Store.OpenSession();
        using var second = Store.OpenSession();
        var loaded = first.Load<Badge>("badges/1")!;
        Assert.Same(loaded, second.Load<Badge>("badges/1"));
        Assert.Equal(["a", "b"], loaded.Tags.ToArray());
        Assert.Equal(1, loaded.Scores["x"]);
        Assert.Equal(badge.Issued, loaded.Issued);
    }

    [Fact]
    public void Bulk_insert_takes_read_only_entities_and_refuses_one_under_another_id()
    {
        using (var bulk = Store.BulkInsert())
        {
            bulk.Store(NewTicket("tickets/given", 1m));
            bulk.Store(NewTicket(null!, 2m));
        }
        using var session = Store.OpenSession();
        var tickets = session.Query<Ticket>().WaitForNonStaleResults().ToList();
        Assert.Equal([1m, 2m], tickets.Select(ticket => ticket.Price).Order());
        using var again = Store.BulkInsert();
        Assert.Throws<ArgumentException>(() => again.Store(tickets[0], "tickets/other"));
    }

    private void Seed(params Ticket[] tickets)
    {
        using var session = Store.OpenSession();
        foreach (var ticket in tickets)
            session.Store(ticket);
        session.SaveChanges();
    }
}

public sealed class EmbeddedReadOnlyEntityTests : ReadOnlyEntityTests
{
    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteReadOnlyEntityTests : ReadOnlyEntityTests
{
    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
