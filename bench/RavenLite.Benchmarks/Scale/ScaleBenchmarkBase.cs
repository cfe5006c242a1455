using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing;

namespace RavenLite.Benchmarks.Scale;

/// <summary>
/// How reads hold up as the database grows (<see cref="Documents"/> in all, of which 1,000 seed carts and the rest
/// user documents), warm cache: the selective seed query (<c>Tag:Item</c>, PageSize 1024, always 1,000 results),
/// and paging through everything (<c>*:*</c>, PageSize 1024): the first page, a deep page starting at 90% of the
/// result, and the same deep page reached with a continuation token instead of a start position. Then the point get
/// of <c>carts/666</c>, and the seed query and the point get with the cache emptied first (cold cache; the OS page
/// cache stays warm: the <c>--scale</c> mode times reads from disk).
/// </summary>
public abstract class ScaleBenchmarkBase : IDisposable
{
    private const int PageSize = 1024;
    private DocumentDatabase _database = null!;
    private IndexQuery _firstPage = null!;
    private IndexQuery _deepPage = null!;
    private IndexQuery _deepPageByToken = null!;

    /// <summary>Documents in the database.</summary>
    public abstract int Documents { get; set; }

    private int DeepStart => Documents / 10 * 9;

    private int DeepPageCount => Math.Min(PageSize, Documents - DeepStart);

    [GlobalSetup]
    public void Setup()
    {
        _database = ScaleDataset.Open(Documents);
        _firstPage = new IndexQuery { Query = "*:*", PageSize = PageSize };
        _deepPage = new IndexQuery { Query = "*:*", Start = DeepStart, PageSize = PageSize };
        // The token after the document just before the deep page: the next page starts where Start would.
        var before = _database.Query(SeedDataset.Index, new IndexQuery { Query = "*:*", Start = DeepStart - 1, PageSize = 1 });
        _deepPageByToken = new IndexQuery { Query = "*:*", PageSize = PageSize, Continuation = before.Continuation };
        if (DeepPageByStart() != DeepPageByToken())
            throw new InvalidOperationException("The deep page by start and by continuation token differ.");
        _ = SelectiveQuery();
        _ = FirstPage();
        _ = PointGet();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _database?.Dispose();
        GC.SuppressFinalize(this);
    }

    [Benchmark(Description = "selective: Tag:Item, PageSize 1024 (1,000 results)")]
    public long SelectiveQuery() =>
        SeedDataset.SumCartIds(_database.Query(SeedDataset.Index, SeedDataset.SeedQuery).Results, ScaleDataset.Carts);

    /// <summary>Includes emptying the cache: all 1,000 carts are read from storage and parsed.</summary>
    [Benchmark(Description = "selective: Tag:Item, cold cache")]
    public long SelectiveQueryColdCache()
    {
        _database.ClearCache();
        return SelectiveQuery();
    }

    [Benchmark(Description = "point get carts/666, warm cache")]
    public long PointGet() =>
        _database.Get(SeedCart.Key)?.Data.GetProperty("cartId").GetInt64() ?? throw new InvalidOperationException($"{SeedCart.Key} missing.");

    /// <summary>Includes emptying the cache, which then holds only this one document.</summary>
    [Benchmark(Description = "point get carts/666, cold cache")]
    public long PointGetColdCache()
    {
        _database.ClearCache();
        return PointGet();
    }

    [Benchmark(Description = "*:*, first page of 1024")]
    public string FirstPage() => Page(_firstPage, Math.Min(PageSize, Documents));

    [Benchmark(Description = "*:*, deep page: Start at 90%")]
    public string DeepPageByStart() => Page(_deepPage, DeepPageCount);

    [Benchmark(Description = "*:*, deep page: continuation token")]
    public string DeepPageByToken() => Page(_deepPageByToken, DeepPageCount);

    /// <summary>Runs a page query and checks its size; returns the first and last keys, so two pages can be compared.</summary>
    private string Page(IndexQuery query, int expected)
    {
        var result = _database.Query(SeedDataset.Index, query);
        if (result.Results.Count != expected || result.TotalResults != Documents)
            throw new InvalidOperationException($"Expected {expected} of {Documents}, got {result.Results.Count} of {result.TotalResults}.");
        return $"{result.Results[0].Key}..{result.Results[^1].Key}";
    }
}
