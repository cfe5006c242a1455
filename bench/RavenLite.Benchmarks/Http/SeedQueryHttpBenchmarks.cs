using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;

namespace RavenLite.Benchmarks.Http;

/// <summary>
/// The seed query over HTTP on loopback, warm cache: the real RavenLite server, started in-process on 127.0.0.1
/// (port 0) over the seed scenario (1,024 seed carts among 1,024 user documents), answering <c>GET /indexes/Raven/DocumentsByEntityName?query=Tag:Item&amp;pageSize=1024</c>,
/// with HttpClient reading the whole body (into a kept buffer: <see cref="ResponseBody"/>); next to a minimal Kestrel endpoint returning the same bytes, captured
/// from the real response. The difference is RavenLite's own work: routing, parameters, the query, the ETag and
/// streaming the documents with their metadata. The real server runs twice: with its query response cache (the
/// default: an unchanged query is served from kept bytes, checked before it runs) and with it off
/// (<c>--query-cache-mb 0</c>: every request runs the query and writes the page). Client and servers share the
/// machine's two cores.
/// </summary>
[MemoryDiagnoser]
public class SeedQueryHttpBenchmarks : IDisposable
{
    internal const string SeedQueryPath = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=1024";
    private const string CountOnlyPath = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=0";

    /// <summary>
    /// Requests per endpoint before measuring, so the server's code (ours and Kestrel's) is at its final JIT tier:
    /// BenchmarkDotNet's three warm-up iterations of ~64 requests leave the first measured ones about twice as slow.
    /// </summary>
    private const int JitWarmUpRequests = 500;

    /// <summary>
    /// How far a RavenLite body may differ in length from the captured one: its <c>Timings</c> member holds this
    /// request's durations (and, from the response cache, fewer of them).
    /// </summary>
    internal const int TimingsSlack = 512;

    private readonly string _directory = BenchmarkFolders.NewTemp();
    private readonly string _uncachedDirectory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private WebApplication _uncachedServer = null!;
    private PrebuiltResponseServer _prebuilt = null!;
    private HttpClient _serverClient = null!;
    private HttpClient _uncachedClient = null!;
    private HttpClient _prebuiltClient = null!;

    private readonly ResponseBody _body = new();

    // Synchronous over the async set-up: BenchmarkDotNet's in-process toolchain (the CI's smoke) does not await an async
    // [GlobalSetup], and would run the rows against a server not yet started.
    [GlobalSetup]
    public void Setup() => SetupAsync().GetAwaiter().GetResult();

    private async Task SetupAsync()
    {
        (_server, _serverClient) = await StartServerAsync(_directory);
        (_uncachedServer, _uncachedClient) = await StartServerAsync(_uncachedDirectory, "--query-cache-mb", "0");

        // Capture the body the prebuilt endpoint will serve (a query that ran, with its timings).
        var body = await _uncachedClient.GetByteArrayAsync(SeedQueryPath);
        _prebuilt = await PrebuiltResponseServer.StartAsync(body);
        _prebuiltClient = new HttpClient { BaseAddress = _prebuilt.Address };

        for (var i = 0; i < JitWarmUpRequests; i++)
        {
            if (await PrebuiltBytes() != body.Length || await PrebuiltChunked() != body.Length
                || Math.Abs(await RavenLiteSeedQuery() - body.Length) > TimingsSlack
                || Math.Abs(await RavenLiteSeedQueryUncached() - body.Length) > TimingsSlack)
                throw new InvalidOperationException("The endpoints do not return the same body.");
            await RavenLiteCountOnly();
        }
    }

    /// <summary>A server over the seed scenario, its index caught up and its document cache warm.</summary>
    internal static async Task<(WebApplication Server, HttpClient Client)> StartServerAsync(string directory, params string[] options)
    {
        var server = BenchmarkServer.Start(directory, options);
        SeedDataset.Load(server.Services.GetRequiredService<DocumentDatabase>(), SeedDataset.Carts, SeedDataset.Others);
        var client = new HttpClient { BaseAddress = new Uri(server.Urls.First()) };
        using (var ready = await client.GetAsync(SeedQueryPath + "&waitForNonStaleResults=true&timeout=60"))
            ready.EnsureSuccessStatusCode();
        return (server, client);
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _serverClient?.Dispose();
        _uncachedClient?.Dispose();
        _prebuiltClient?.Dispose();
        _prebuilt?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        BenchmarkServer.Stop(_server);
        BenchmarkServer.Stop(_uncachedServer);
        BenchmarkFolders.Delete(_directory);
        BenchmarkFolders.Delete(_uncachedDirectory);
        GC.SuppressFinalize(this);
    }

    /// <summary>The bytes alone, from a minimal endpoint, one write with a Content-Length: Kestrel + loopback + HttpClient.</summary>
    [Benchmark(Baseline = true, Description = "prebuilt bytes, Content-Length")]
    public Task<int> PrebuiltBytes() => _body.ReadAsync(_prebuiltClient, "/prebuilt");

    /// <summary>The same bytes streamed without a length (chunked), as any response that is not built whole first must be.</summary>
    [Benchmark(Description = "prebuilt bytes, chunked")]
    public Task<int> PrebuiltChunked() => _body.ReadAsync(_prebuiltClient, "/prebuilt-chunked");

    /// <summary>The seed query through the real server, whole body read: after the first, served from the response cache.</summary>
    [Benchmark(Description = "RavenLite: Tag:Item, pageSize 1024")]
    public Task<int> RavenLiteSeedQuery() => _body.ReadAsync(_serverClient, SeedQueryPath);

    /// <summary>The seed query with the response cache off: the query runs and the page is written every time.</summary>
    [Benchmark(Description = "RavenLite: Tag:Item, pageSize 1024, response cache off")]
    public Task<int> RavenLiteSeedQueryUncached() => _body.ReadAsync(_uncachedClient, SeedQueryPath);

    /// <summary>The same query counting only, response cache off: the per-request overhead of the server and the index, no documents.</summary>
    [Benchmark(Description = "RavenLite: Tag:Item, pageSize 0")]
    public Task<int> RavenLiteCountOnly() => _body.ReadAsync(_uncachedClient, CountOnlyPath);
}
