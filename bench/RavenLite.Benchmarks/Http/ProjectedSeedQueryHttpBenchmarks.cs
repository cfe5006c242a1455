using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Http;

/// <summary>
/// The seed query over HTTP on loopback (1,024 seed carts among 1,024 user documents, warm document cache), whole
/// carts against the same page projected to two fields (<c>fetch=cartId&amp;fetch=otherStuff</c>), with HttpClient
/// reading the whole body. Each both with the server's query response cache (the default: after the first request
/// the kept bytes are served) and with it off (<c>--query-cache-mb 0</c>: the page is written every time, so the
/// projection's copying out of the cached JSON is measured). The response bytes are printed by the setup; every
/// benchmark returns the bytes it read. Client and servers share the machine's cores.
/// </summary>
[MemoryDiagnoser]
public class ProjectedSeedQueryHttpBenchmarks : IDisposable
{
    private const string SeedQueryPath = SeedQueryHttpBenchmarks.SeedQueryPath;
    private const string ProjectedPath = SeedQueryPath + "&fetch=cartId&fetch=otherStuff";

    /// <summary>Requests per endpoint before measuring, so the server's code is at its final JIT tier (as the seed query benchmark does).</summary>
    private const int JitWarmUpRequests = 300;

    private const int TimingsSlack = SeedQueryHttpBenchmarks.TimingsSlack;

    private readonly string _directory = BenchmarkFolders.NewTemp();
    private readonly string _uncachedDirectory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private WebApplication _uncachedServer = null!;
    private HttpClient _client = null!;
    private HttpClient _uncachedClient = null!;

    private readonly ResponseBody _body = new();

    // Synchronous over the async set-up: BenchmarkDotNet's in-process toolchain (the CI's smoke) does not await an async
    // [GlobalSetup], and would run the rows against a server not yet started.
    [GlobalSetup]
    public void Setup() => SetupAsync().GetAwaiter().GetResult();

    private async Task SetupAsync()
    {
        (_server, _client) = await SeedQueryHttpBenchmarks.StartServerAsync(_directory);
        (_uncachedServer, _uncachedClient) = await SeedQueryHttpBenchmarks.StartServerAsync(_uncachedDirectory, "--query-cache-mb", "0");
        var full = await FullPage();
        var projected = await ProjectedPage();
        // The bodies differ only in their Timings member, which holds this request's durations.
        if (projected >= full || Math.Abs(await FullPageUncached() - full) > TimingsSlack || Math.Abs(await ProjectedPageUncached() - projected) > TimingsSlack)
            throw new InvalidOperationException($"Unexpected bodies: whole {full} bytes, projected {projected} bytes.");
        Console.WriteLine($"// Response bytes (Timings member included): whole page {full:N0}, projected page {projected:N0} ({(double)projected / full:P1}).");
        for (var i = 0; i < JitWarmUpRequests; i++)
        {
            await FullPage();
            await ProjectedPage();
            await FullPageUncached();
            await ProjectedPageUncached();
        }
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _client?.Dispose();
        _uncachedClient?.Dispose();
        BenchmarkServer.Stop(_server);
        BenchmarkServer.Stop(_uncachedServer);
        BenchmarkFolders.Delete(_directory);
        BenchmarkFolders.Delete(_uncachedDirectory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "whole carts, response cache on")]
    public Task<int> FullPage() => _body.ReadAsync(_client, SeedQueryPath);

    [Benchmark(Description = "fetch=cartId&fetch=otherStuff, response cache on")]
    public Task<int> ProjectedPage() => _body.ReadAsync(_client, ProjectedPath);

    [Benchmark(Description = "whole carts, response cache off")]
    public Task<int> FullPageUncached() => _body.ReadAsync(_uncachedClient, SeedQueryPath);

    [Benchmark(Description = "fetch=cartId&fetch=otherStuff, response cache off")]
    public Task<int> ProjectedPageUncached() => _body.ReadAsync(_uncachedClient, ProjectedPath);
}
