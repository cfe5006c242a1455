using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;
using RavenLite.Database;

namespace RavenLite.Benchmarks.Client;

/// <summary>
/// The real server, in-process on 127.0.0.1 (port 0) over a temp folder holding the seed scenario, and a remote
/// <see cref="RavenStore"/> talking to it. The seed carts' entity name is <c>Item</c>, so <see cref="Conventions"/>
/// maps <see cref="Cart"/> and <see cref="ReadOnlyCart"/> to it.
/// </summary>
internal sealed class ClientServer : IDisposable
{
    public static readonly StoreConventions Conventions = ConventionsWith(new EntityCacheOptions());

    /// <summary>The benchmark conventions with other entity cache bounds.</summary>
    public static StoreConventions ConventionsWith(EntityCacheOptions entityCache) => new()
    {
        FindEntityName = type => type == typeof(Cart) || type == typeof(ReadOnlyCart) ? "Item" : type.Name,
        EntityCache = entityCache,
    };

    private readonly string _directory = BenchmarkFolders.NewTemp();
    private readonly WebApplication _server;

    public ClientServer(bool cacheEnabled, int carts, int others)
    {
        string[] cache = cacheEnabled ? [] : ["--cache-size-mb", "0"];
        _server = BenchmarkServer.Start(_directory, cache);
        SeedDataset.Load(_server.Services.GetRequiredService<DocumentDatabase>(), carts, others);
        Url = new Uri(_server.Urls.First());
        Store = RavenStore.ForServer(Url, Conventions);
    }

    public Uri Url { get; }

    public RavenStore Store { get; }

    public void Dispose()
    {
        Store.Dispose();
        BenchmarkServer.Stop(_server);
        BenchmarkFolders.Delete(_directory);
    }
}
