using System.Text;
using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Features;

/// <summary>
/// Changes-feed throughput: 10,000 seed carts written (ten batches of 1,000) while one subscriber reads the feed from
/// the etag before them until it has all 10,000. Embedded (<c>DocumentDatabase.Changes</c>) and over HTTP (an SSE
/// client reading <c>GET /changes</c> of the real server on 127.0.0.1). Changes/s = 10,000 / mean.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(1)] // each invocation writes 10,000 documents: one per iteration keeps the database small
public class ChangesFeedBenchmarks : IDisposable
{
    private const int Changes = 10_000;
    private readonly string _directory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private DocumentDatabase _database = null!;
    private HttpClient _http = null!;
    private int _round;

    [GlobalSetup]
    public void Setup()
    {
        _server = BenchmarkServer.Start(_directory);
        _database = _server.Services.GetRequiredService<DocumentDatabase>();
        _http = new HttpClient { BaseAddress = new Uri(_server.Urls.First()), Timeout = Timeout.InfiniteTimeSpan };
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _http?.Dispose();
        BenchmarkServer.Stop(_server);
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "changes feed, embedded, 10,000 while writing")]
    public async Task<int> Embedded()
    {
        var from = _database.LastEtag;
        var writing = WriteAsync();
        var received = 0;
        await foreach (var change in _database.Changes(from))
        {
            if (change.Kind != ChangeKind.IndexCaughtUp && ++received == Changes)
                break;
        }
        await writing;
        return received;
    }

    [Benchmark(Description = "changes feed, SSE client, 10,000 while writing")]
    public async Task<int> ServerSentEvents()
    {
        var from = _database.LastEtag;
        using var request = new HttpRequestMessage(HttpMethod.Get, "/changes?indexes=false");
        request.Headers.Add("Last-Event-ID", from.ToString(System.Globalization.CultureInfo.InvariantCulture));
        using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(), Encoding.UTF8);
        var writing = WriteAsync();
        var received = 0;
        while (received < Changes && await reader.ReadLineAsync() is { } line)
        {
            if (line.StartsWith("id: ", StringComparison.Ordinal))
                received++;
        }
        await writing;
        return received == Changes ? received : throw new InvalidOperationException($"{received} of {Changes} changes arrived.");
    }

    private Task WriteAsync()
    {
        var round = Interlocked.Increment(ref _round);
        return Task.Run(() =>
        {
            for (var batch = 0; batch < Changes / 1000; batch++)
                _database.Batch(Enumerable.Range(0, 1000).Select(i => SeedCart.Put($"feed/{round}/{batch}/{i}")).ToList());
        });
    }
}
