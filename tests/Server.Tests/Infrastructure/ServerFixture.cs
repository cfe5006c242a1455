namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>One server per test class (its own data folder); tests in the class use distinct keys.</summary>
public class ServerFixture : IAsyncLifetime
{
    private TestServer? _server;

    public TestServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public HttpClient Client => Server.Client;

    protected virtual Task<TestServer> StartAsync() => TestServer.StartAsync();

    public async Task InitializeAsync() => _server = await StartAsync();

    public async Task DisposeAsync()
    {
        if (_server is not null)
            await _server.DisposeAsync();
    }
}
