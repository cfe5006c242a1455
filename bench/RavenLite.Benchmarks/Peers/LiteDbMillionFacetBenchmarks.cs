using BenchmarkDotNet.Attributes;
using LiteDB;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Benchmarks.Query;
using RavenLite.Benchmarks.Scale;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// LiteDB beside <see cref="FacetBenchmarks"/>: the same 1,000,000 products in a collection with an index on
/// <c>category</c>, and the three facets as three <c>GROUP BY</c>s of the 10% in category <c>c3</c> (brand, rating, and
/// the four price ranges). In the million category, so it runs only when named: loading a million documents into
/// LiteDB takes about a minute, too long for every suite run (the class name holds "Million" so that naming it is enough).
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory(MillionScaleBenchmarks.Category)]
public class LiteDbMillionFacetBenchmarks : IDisposable
{
    private static readonly string[] s_groupBys =
    [
        "SELECT { brand: @key, count: COUNT(*) } FROM products WHERE category = 'c3' GROUP BY brand",
        "SELECT { rating: @key, count: COUNT(*) } FROM products WHERE category = 'c3' GROUP BY rating",
        "SELECT { bucket: @key, count: COUNT(*) } FROM products WHERE category = 'c3' " +
            "GROUP BY IIF(price < 100, 0, IIF(price < 250, 1, IIF(price < 500, 2, 3)))",
    ];

    private string _directory = "";
    private LiteDatabase? _lite;
    private long _expected;

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkFolders.NewTemp();
        Directory.CreateDirectory(_directory);
        _lite = new LiteDatabase(new ConnectionString { Filename = Path.Combine(_directory, "products.litedb"), Connection = ConnectionType.Direct });
        var products = _lite.GetCollection("products");
        products.EnsureIndex("category");
        var id = 0;
        foreach (var chunk in FacetBenchmarks.Generate().Chunk(10_000))
        {
            products.InsertBulk(chunk.Select(p => new BsonDocument
            {
                ["_id"] = ++id, ["category"] = p.Category, ["brand"] = p.Brand, ["rating"] = p.Rating, ["price"] = (double)p.Price,
            }));
        }
        _lite.Checkpoint();
        _expected = FacetBenchmarks.Generate().Count(p => p.Category == "c3");
        if (GroupBys() != _expected)
            throw new InvalidOperationException("LiteDB's GROUP BYs do not count every match.");
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _lite?.Dispose();
        _lite = null;
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    /// <summary>The three GROUP BYs, every group read; returns the rating counts' total (every match).</summary>
    [Benchmark(Description = "LiteDB: 3 GROUP BYs (index on category), 10% of the products")]
    public long GroupBys()
    {
        long ratings = 0;
        for (var i = 0; i < s_groupBys.Length; i++)
        {
            using var reader = _lite!.Execute(s_groupBys[i]);
            while (reader.Read())
            {
                if (i == 1)
                    ratings += reader.Current["count"].AsInt64;
            }
        }
        return ratings;
    }
}
