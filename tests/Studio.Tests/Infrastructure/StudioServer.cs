using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Newtonsoft.Json.Linq;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Server;
using RavenLite.Storage.Documents;

namespace RavenLite.Studio.Tests.Infrastructure;

/// <summary>The real server (Kestrel on 127.0.0.1, port 0) over a temporary folder holding <see cref="Carts"/> seed carts.</summary>
public sealed class StudioServer : IAsyncDisposable
{
    public const int Carts = 1024;

    private StudioServer(WebApplication app, string dataDirectory)
    {
        App = app;
        DataDirectory = dataDirectory;
        Address = new Uri(app.Urls.First());
        Client = new HttpClient { BaseAddress = Address, Timeout = TimeSpan.FromSeconds(30) };
    }

    public WebApplication App { get; }

    public string DataDirectory { get; }

    public Uri Address { get; }

    public HttpClient Client { get; }

    public DocumentDatabase Database => App.Services.GetRequiredService<DocumentDatabase>();

    /// <summary>Starts the server and puts carts/0 .. carts/1023 from testdata/seed-cart.json (entity name Item).</summary>
    public static async Task<StudioServer> StartAsync(params string[] extraArgs)
    {
        var directory = Path.Combine(Path.GetTempPath(), "ravenlite-studio-tests", Guid.NewGuid().ToString("N"));
        var app = RavenLiteServer.Build(["--data-dir", directory, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning", .. extraArgs]);
        await app.StartAsync();
        var server = new StudioServer(app, directory);
        var seed = JObject.Parse(await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Data", "seed-cart.json")));
        var data = DocumentContent.FromJObject((JObject)seed["data"]!);
        var metadata = DocumentContent.FromJObject((JObject)seed["metadata"]!);
        server.Database.Batch([.. Enumerable.Range(0, Carts).Select(i => BatchCommand.Put($"carts/{i}", data, metadata))]);
        // The studio's queries then see every cart, whatever the indexer's pace.
        server.Database.Query("Raven/DocumentsByEntityName", new IndexQuery { Query = "Tag:Item", PageSize = 0, WaitForNonStaleResults = true });
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await App.StopAsync();
        await App.DisposeAsync();
        foreach (var folder in new[] { DataDirectory, Path.TrimEndingDirectorySeparator(DataDirectory) + "-backups" })
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        }
    }
}
