using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Indexing;

/// <summary>
/// The 2011 seed query: <c>Tag:Item</c> with PageSize 1024 on the built-in index, in a database of 100,000
/// documents (1,024 seed carts, the rest another entity name), reading each cart's <c>cartId</c>; cache on and off.
/// The "index only" row asks for a page of 0, so it is the index's share: matching and counting, no loading.
/// </summary>
[MemoryDiagnoser]
[SimpleJob(warmupCount: 3, iterationCount: 10)]
public class SeedQueryBenchmarks : IDisposable
{
    private const int Carts = 1024;
    private const int Documents = 100_000;
    private const string Index = "Raven/DocumentsByEntityName";
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "ravenlite-bench", Guid.NewGuid().ToString("N"));
    private static readonly IndexQuery s_seedQuery = new() { Query = "Tag:Item", PageSize = 1024 };
    private static readonly IndexQuery s_countOnly = new() { Query = "Tag:Item", PageSize = 0 };
    private DocumentDatabase _db = null!;

    /// <summary>Whether the document cache is on.</summary>
    [Params(true, false)]
    public bool CacheEnabled { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory, CacheEnabled = CacheEnabled });
        var other = DocumentContent.FromJson("""{"name": "someone", "email": "someone@example.com", "visits": 3}""");
        var otherMetadata = DocumentContent.FromJson("""{"Raven-Entity-Name": "User"}""");
        var commands = new List<BatchCommand>(Documents);
        for (var i = 0; i < Carts; i++)
            commands.Add(SeedCart.Put($"carts/{i}"));
        for (var i = Carts; i < Documents; i++)
            commands.Add(BatchCommand.Put($"users/{i}", other, otherMetadata));
        foreach (var chunk in commands.Chunk(10_000))
            _db.Batch(chunk);
        var ready = _db.Query(Index, new IndexQuery { Query = "Tag:Item", PageSize = 0, WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(10) });
        if (ready.TotalResults != Carts)
            throw new InvalidOperationException($"Expected {Carts} carts, the index found {ready.TotalResults}.");
        SeedQuery(); // warm: with the cache on, the page is cached from here on
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _db?.Dispose();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>The seed query, each cart's cartId read.</summary>
    [Benchmark(Description = "Tag:Item, PageSize 1024, read cartId")]
    public long SeedQuery()
    {
        var result = _db.Query(Index, s_seedQuery);
        long sum = 0;
        foreach (var document in result.Results)
            sum += document.Data.GetProperty("cartId").GetInt64();
        return sum == 666L * Carts ? sum : throw new InvalidOperationException($"Wrong result: {result.Results.Count} documents.");
    }

    /// <summary>The index's share of the seed query: match and count, load nothing.</summary>
    [Benchmark(Description = "Tag:Item, index only (PageSize 0)")]
    public int IndexOnly() => _db.Query(Index, s_countOnly).TotalResults;
}
