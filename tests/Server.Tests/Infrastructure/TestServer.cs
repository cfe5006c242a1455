using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;

namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>The real server (Kestrel on 127.0.0.1, port 0) over a temporary data folder, with a client for it.</summary>
public sealed class TestServer : IAsyncDisposable
{
    private TestServer(WebApplication app, string dataDirectory, Uri address)
    {
        App = app;
        DataDirectory = dataDirectory;
        Address = address;
        Client = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromSeconds(30) };
    }

    public WebApplication App { get; }

    public string DataDirectory { get; }

    public Uri Address { get; }

    public HttpClient Client { get; }

    /// <summary>Builds and starts the server; <paramref name="extraArgs"/> are appended to the command line.</summary>
    public static async Task<TestServer> StartAsync(string[]? extraArgs = null, Action<WebApplicationBuilder>? configure = null,
        Action<WebApplication>? addRoutes = null, string? dataDirectory = null)
    {
        var directory = dataDirectory ?? NewDataDirectory();
        string[] args = ["--data-dir", directory, "--Logging:LogLevel:Default=Warning", .. extraArgs ?? ["--urls", "http://127.0.0.1:0"]];
        if (!args.Contains("--urls"))
            args = [.. args, "--urls", "http://127.0.0.1:0"];
        var app = RavenLiteServer.Build(args, configure);
        addRoutes?.Invoke(app);
        await app.StartAsync();
        // Requests always go to loopback, even when the server listens on 0.0.0.0.
        var bound = new Uri(app.Urls.First());
        return new TestServer(app, directory, new UriBuilder(bound) { Host = "127.0.0.1" }.Uri);
    }

    public static string NewDataDirectory() => Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", Guid.NewGuid().ToString("N"));

    /// <summary>PUT a JSON document; returns the response (not yet checked).</summary>
    public Task<HttpResponseMessage> PutAsync(string key, string json, string? entityName = null, string? ifMatch = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = Json(json) };
        if (entityName is not null)
            request.Headers.Add("Raven-Entity-Name", entityName);
        if (ifMatch is not null)
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        return Client.SendAsync(request);
    }

    public static StringContent Json(string json) => new(json, new MediaTypeHeaderValue("application/json"));

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await App.StopAsync();
        await App.DisposeAsync();
        if (Directory.Exists(DataDirectory))
            Directory.Delete(DataDirectory, recursive: true);
    }
}
