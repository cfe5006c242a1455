using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;
using RavenLite.Database;
using RavenLite.Server;

namespace RavenLite.Benchmarks.Client;

/// <summary>
/// The real server, in-process on 127.0.0.1 (port 0) over a temp folder holding the seed scenario, and a remote
/// <see cref="RavenStore"/> talking to it. The seed carts' entity name is <c>Item</c>, so <see cref="Conventions"/>
/// maps <see cref="Cart"/> to it.
/// </summary>
internal sealed class ClientServer : IDisposable
{
    public static readonly StoreConventions Conventions = ConventionsWith(new EntityCacheOptions());

    /// <summary>The benchmark conventions with other entity cache bounds.</summary>
    public static StoreConventions ConventionsWith(EntityCacheOptions entityCache) => new()
    {
        FindEntityName = type => type == typeof(Cart) ? "Item" : type.Name,
        EntityCache = entityCache,
    };

    private readonly string _directory = BenchmarkFolders.NewTemp();
    private readonly WebApplication _server;

    public ClientServer(bool cacheEnabled, int carts, int others)
    {
        string[] cache = cacheEnabled ? [] : ["--cache-size-mb", "0"];
        _server = RavenLiteServer.Build(["--data-dir", _directory, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning", .. cache]);
        _server.StartAsync().GetAwaiter().GetResult();
        SeedDataset.Load(_server.Services.GetRequiredService<DocumentDatabase>(), carts, others);
        Url = new Uri(_server.Urls.First());
        Store = RavenStore.ForServer(Url, Conventions);
    }

    public Uri Url { get; }

    public RavenStore Store { get; }

    public void Dispose()
    {
        Store.Dispose();
        _server.StopAsync().GetAwaiter().GetResult();
        _server.DisposeAsync().AsTask().GetAwaiter().GetResult();
        BenchmarkFolders.Delete(_directory);
    }
}
