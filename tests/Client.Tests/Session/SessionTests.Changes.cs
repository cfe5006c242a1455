using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    [Fact]
    public async Task Store_changes_delivers_history_then_live_changes_through_the_filter()
    {
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        using (var session = Store.OpenSession())
        {
            session.Store(NewCart("a"), "carts/c1");
            session.Store(new Dog { Name = "rex" }, "dogs/1");
            session.SaveChanges();
        }

        var seen = new List<(ChangeKind, string?)>();
        var filter = new ChangesFilter { Prefixes = ["carts/"], IncludeIndexes = false };
        await foreach (var change in Store.Changes(filter, cancellationToken: cts.Token))
        {
            seen.Add((change.Kind, change.Key));
            if (seen.Count == 1)
            {
                using var session = Store.OpenSession();
                session.Store(new Dog { Name = "fido" }, "dogs/2");
                session.Store(NewCart("b"), "carts/c2");
                session.Delete("carts/c1");
                await session.SaveChangesAsync(cts.Token);
            }
            if (seen.Count == 3)
                break;
        }

        Assert.Equal([(ChangeKind.Put, "carts/c1"), (ChangeKind.Delete, "carts/c1"), (ChangeKind.Put, "carts/c2")], seen);
    }

    [Fact]
    public async Task Store_changes_by_collection_resumes_from_an_etag()
    {
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        using (var session = Store.OpenSession())
        {
            session.Store(NewCart("a"), "carts/r1");
            session.Store(NewCart("b"), "carts/r2");
            session.Store(new Dog { Name = "rex" }, "dogs/r1");
            session.SaveChanges();
        }
        var first = await FirstAsync(Store.Changes(new ChangesFilter { Collections = [Store.Conventions.FindEntityName(typeof(Cart))], IncludeIndexes = false }, 0, cts.Token));
        var second = await FirstAsync(Store.Changes(new ChangesFilter { Collections = [Store.Conventions.FindEntityName(typeof(Cart))], IncludeIndexes = false }, first.Etag, cts.Token));

        Assert.Equal("carts/r1", first.Key);
        Assert.Equal("carts/r2", second.Key);
    }

    private static async Task<DatabaseChange> FirstAsync(IAsyncEnumerable<DatabaseChange> changes)
    {
        await foreach (var change in changes)
            return change;
        throw new InvalidOperationException("The feed ended.");
    }
}
