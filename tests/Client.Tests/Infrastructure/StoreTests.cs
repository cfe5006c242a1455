namespace RavenLite.Client.Tests.Infrastructure;

/// <summary>
/// A test class whose every test runs on a fresh database behind a store, embedded or remote: each subclass pair
/// (one per fixture) runs the same tests against both.
/// </summary>
public abstract class StoreTests : IAsyncLifetime
{
    private StoreFixture? _fixture;

    protected StoreFixture Fixture => _fixture ?? throw new InvalidOperationException("Not started.");

    protected RavenStore Store => Fixture.Store;

    protected abstract Task<StoreFixture> StartAsync();

    public async Task InitializeAsync() => _fixture = await StartAsync();

    public async Task DisposeAsync()
    {
        if (_fixture is not null)
            await _fixture.DisposeAsync();
    }
}
