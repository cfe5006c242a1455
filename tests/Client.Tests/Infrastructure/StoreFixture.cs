namespace RavenLite.Client.Tests.Infrastructure;

/// <summary>A fresh database behind a <see cref="RavenStore"/>, embedded or remote, with the few things the tests do around the client.</summary>
public abstract class StoreFixture : IAsyncDisposable
{
    protected StoreFixture(RavenStore store) => Store = store;

    public RavenStore Store { get; }

    /// <summary>Another store over the same database (another application, or a restart), with its own conventions.</summary>
    public abstract RavenStore OpenAnotherStore(StoreConventions? conventions = null);

    /// <summary>Creates a user index from its JSON definition.</summary>
    public abstract Task PutIndexAsync(string name, string definitionJson);

    /// <summary>Writes a document without the client, as another program would.</summary>
    public abstract Task PutRawAsync(string key, string json, string? entityName, string? clrType = null);

    public abstract ValueTask DisposeAsync();
}
