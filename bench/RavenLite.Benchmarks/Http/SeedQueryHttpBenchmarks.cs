using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Server;

namespace RavenLite.Benchmarks.Http;

/// <summary>
/// The seed query over HTTP on loopback, warm cache: the real RavenLite server, started in-process on 127.0.0.1
/// (port 0) over the seed scenario (1,024 seed carts among 1,024 user documents), answering <c>GET /indexes/Raven/DocumentsByEntityName?query=Tag:Item&amp;pageSize=1024</c>,
/// with HttpClient reading the whole body; next to a minimal Kestrel endpoint returning the same bytes, captured
/// from the real response. The difference is RavenLite's own work: routing, parameters, the query, the ETag and
/// streaming the documents with their metadata. Client and servers share the machine's two cores.
/// </summary>
[MemoryDiagnoser]
public class SeedQueryHttpBenchmarks : IDisposable
{
    private const string SeedQueryPath = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=1024";
    private const string CountOnlyPath = "/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=0";

    /// <summary>
    /// Requests per endpoint before measuring, so the server's code (ours and Kestrel's) is at its final JIT tier:
    /// BenchmarkDotNet's three warm-up iterations of ~64 requests leave the first measured ones about twice as slow.
    /// </summary>
    private const int JitWarmUpRequests = 500;

    private readonly string _directory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private PrebuiltResponseServer _prebuilt = null!;
    private HttpClient _serverClient = null!;
    private HttpClient _prebuiltClient = null!;

    [GlobalSetup]
    public async Task Setup()
    {
        _server = RavenLiteServer.Build(["--data-dir", _directory, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning"]);
        await _server.StartAsync();
        var database = _server.Services.GetRequiredService<DocumentDatabase>();
        SeedDataset.Load(database, SeedDataset.Carts, SeedDataset.Others);
        _serverClient = new HttpClient { BaseAddress = new Uri(_server.Urls.First()) };

        // Wait for the index, warm the cache, and capture the body the prebuilt endpoint will serve.
        using (var ready = await _serverClient.GetAsync(SeedQueryPath + "&waitForNonStaleResults=true&timeout=60"))
            ready.EnsureSuccessStatusCode();
        var body = await _serverClient.GetByteArrayAsync(SeedQueryPath);
        _prebuilt = await PrebuiltResponseServer.StartAsync(body);
        _prebuiltClient = new HttpClient { BaseAddress = _prebuilt.Address };

        for (var i = 0; i < JitWarmUpRequests; i++)
        {
            if (await RavenLiteSeedQuery() != body.Length || await PrebuiltBytes() != body.Length || await PrebuiltChunked() != body.Length)
                throw new InvalidOperationException("The endpoints do not return the same body length.");
            await RavenLiteCountOnly();
        }
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _serverClient?.Dispose();
        _prebuiltClient?.Dispose();
        _prebuilt?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        if (_server is not null)
        {
            _server.StopAsync().GetAwaiter().GetResult();
            _server.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    /// <summary>The bytes alone, from a minimal endpoint, one write with a Content-Length: Kestrel + loopback + HttpClient.</summary>
    [Benchmark(Baseline = true, Description = "prebuilt bytes, Content-Length")]
    public async Task<int> PrebuiltBytes() => (await _prebuiltClient.GetByteArrayAsync("/prebuilt")).Length;

    /// <summary>The same bytes streamed without a length (chunked), as any response that is not built whole first must be.</summary>
    [Benchmark(Description = "prebuilt bytes, chunked")]
    public async Task<int> PrebuiltChunked() => (await _prebuiltClient.GetByteArrayAsync("/prebuilt-chunked")).Length;

    /// <summary>The seed query through the real server, whole body read.</summary>
    [Benchmark(Description = "RavenLite: Tag:Item, pageSize 1024")]
    public async Task<int> RavenLiteSeedQuery() => (await _serverClient.GetByteArrayAsync(SeedQueryPath)).Length;

    /// <summary>The same query counting only: the per-request overhead of the server and the index, no documents.</summary>
    [Benchmark(Description = "RavenLite: Tag:Item, pageSize 0")]
    public async Task<int> RavenLiteCountOnly() => (await _serverClient.GetByteArrayAsync(CountOnlyPath)).Length;
}
