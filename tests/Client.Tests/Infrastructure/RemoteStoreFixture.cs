using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;
using RavenLite.Server;

namespace RavenLite.Client.Tests.Infrastructure;

/// <summary>The real server (Kestrel on 127.0.0.1, port 0) over a temp folder, and a remote store talking to it.</summary>
public sealed class RemoteStoreFixture : StoreFixture
{
    private readonly WebApplication _app;
    private readonly string _directory;
    private readonly HttpClient _admin;

    private RemoteStoreFixture(RavenStore store, WebApplication app, string directory, Uri address) : base(store)
    {
        _app = app;
        _directory = directory;
        Address = address;
        _admin = new HttpClient { BaseAddress = address };
    }

    public Uri Address { get; }

    public static async Task<RemoteStoreFixture> StartAsync()
    {
        var directory = Path.Combine(Path.GetTempPath(), "ravenlite-client-tests", Guid.NewGuid().ToString("N"));
        var app = RavenLiteServer.Build(["--data-dir", directory, "--Logging:LogLevel:Default=Warning", "--urls", "http://127.0.0.1:0"]);
        await app.StartAsync();
        var address = new Uri(app.Urls.First());
        return new RemoteStoreFixture(RavenStore.ForServer(address), app, directory, address);
    }

    public override RavenStore OpenAnotherStore(StoreConventions? conventions = null) => RavenStore.ForServer(Address, conventions);

    public override async Task PutIndexAsync(string name, string definitionJson)
    {
        using var response = await _admin.PutAsync("/indexes/" + name, Json(definitionJson));
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    public override async Task PutRawAsync(string key, string json, string? entityName, string? clrType = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = Json(json) };
        if (entityName is not null)
            request.Headers.Add("Raven-Entity-Name", entityName);
        if (clrType is not null)
            request.Headers.Add("Raven-Clr-Type", clrType);
        using var response = await _admin.SendAsync(request);
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    /// <summary>Every index's name, from <c>GET /indexes</c>.</summary>
    public IReadOnlyList<string> IndexNames()
    {
        var json = _admin.GetStringAsync("/indexes").GetAwaiter().GetResult();
        using var document = System.Text.Json.JsonDocument.Parse(json);
        return [.. document.RootElement.EnumerateArray().Select(index => index.GetProperty("Name").GetString()!)];
    }

    public void DeleteIndex(string name)
    {
        using var response = _admin.DeleteAsync("/indexes/" + name).GetAwaiter().GetResult();
        Assert.True(response.IsSuccessStatusCode, response.ReasonPhrase);
    }

    private static StringContent Json(string json) => new(json, new MediaTypeHeaderValue("application/json"));

    public override async ValueTask DisposeAsync()
    {
        Store.Dispose();
        _admin.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }
}
