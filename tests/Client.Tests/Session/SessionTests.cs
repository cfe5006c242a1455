using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

/// <summary>
/// The session suite: every test runs against the embedded store (<see cref="EmbeddedSessionTests"/>) and against the
/// remote store over a real server (<see cref="RemoteSessionTests"/>), each on a fresh database.
/// </summary>
public abstract partial class SessionTests : StoreTests
{
    protected static Cart NewCart(string customer, int total = 1) =>
        new() { Customer = customer, Total = total, Items = [new Item { ProductId = 42, Name = "brimstone", Price = 6.66 }] };

    /// <summary>Reads a document back in a fresh session (what is stored, not what a session remembers).</summary>
    protected T? Reload<T>(string id) where T : class
    {
        using var session = Store.OpenSession();
        return session.Load<T>(id);
    }
}

public sealed class EmbeddedSessionTests : SessionTests
{
    protected override Task<StoreFixture> StartAsync() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
}

public sealed class RemoteSessionTests : SessionTests
{
    protected override async Task<StoreFixture> StartAsync() => await RemoteStoreFixture.StartAsync();
}
