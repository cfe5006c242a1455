using System.Diagnostics;
using System.Diagnostics.Metrics;
using BenchmarkDotNet.Attributes;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Database;
using RavenLite.Indexing;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// The 2011 seed query, <c>Tag:Item</c> with PageSize 1024 on the built-in index, in a database of 1,024 seed carts
/// among 1,024 user documents, each cart's <c>cartId</c> read: warm cache, cold cache (emptied before each query),
/// cache off, and the index's share alone. Next to them the floors every figure is a ratio to: parsing the same
/// 1,024 BSON documents into <c>JObject</c> with nothing else (the baseline), and copying their 1,024 x 702 bytes.
/// </summary>
[MemoryDiagnoser]
public class SeedQueryBenchmarks : IDisposable
{
    private static readonly IndexQuery s_countOnly = new() { Query = "Tag:Item", PageSize = 0 };
    private readonly byte[][] _cartBson = new byte[SeedDataset.Carts][];
    private readonly byte[] _copyTarget = new byte[SeedDataset.Carts * SeedCart.Data.Length];
    private readonly Meter _meter = new("RavenLite.Benchmarks.Timings");
    private readonly Histogram<double> _duration;
    private SeedDatabases _databases = null!;

    public SeedQueryBenchmarks() => _duration = _meter.CreateHistogram<double>(QueryTelemetry.Duration, "s");

    [GlobalSetup]
    public void Setup()
    {
        for (var i = 0; i < _cartBson.Length; i++)
            _cartBson[i] = SeedCart.Data.ToArray();
        _databases = new SeedDatabases();
        Query(_databases.CacheOn.Database); // fills the cache: the first query reads every document from storage
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _databases?.Dispose();
        _meter.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>The parse floor: 1,024 seed-cart BSON documents into JObjects, cartId read; no storage, no index.</summary>
    [Benchmark(Baseline = true, Description = "floor: parse 1,024 BSON -> JObject")]
    public long ParseFloor()
    {
        long sum = 0;
        foreach (var bson in _cartBson)
        {
            using var reader = new BsonDataReader(new MemoryStream(bson, writable: false));
            sum += JObject.Load(reader).Value<long>("cartId");
        }
        return sum == SeedCart.CartId * SeedDataset.Carts ? sum : throw new InvalidOperationException($"Wrong sum {sum}.");
    }

    /// <summary>The memory floor: copying the 1,024 documents' bytes into one buffer.</summary>
    [Benchmark(Description = "floor: copy 1,024 x 702 bytes")]
    public int CopyFloor()
    {
        var at = 0;
        foreach (var bson in _cartBson)
        {
            bson.CopyTo(_copyTarget, at);
            at += bson.Length;
        }
        return at;
    }

    [Benchmark(Description = "Tag:Item, PageSize 1024, cache off")]
    public long CacheOff() => Query(_databases.CacheOff.Database);

    /// <summary>Includes emptying the cache, which is small next to 1,024 deserializations.</summary>
    [Benchmark(Description = "Tag:Item, PageSize 1024, cold cache")]
    public long ColdCache()
    {
        _databases.CacheOn.Database.ClearCache();
        return Query(_databases.CacheOn.Database);
    }

    /// <summary>Timings are always on: <see cref="QueryResult.Timings"/> must say every document came from the cache.</summary>
    [Benchmark(Description = "Tag:Item, PageSize 1024, warm cache")]
    public long WarmCache()
    {
        var result = _databases.CacheOn.Database.Query(SeedDataset.Index, SeedDataset.SeedQuery);
        if (result.Timings.StorageDocuments != 0)
            throw new InvalidOperationException($"A warm query read {result.Timings.StorageDocuments} documents from storage.");
        return SeedDataset.SumCartIds(result.Results, SeedDataset.Carts);
    }

    /// <summary>The index's share: match and count, load nothing.</summary>
    [Benchmark(Description = "Tag:Item, index only (PageSize 0)")]
    public int IndexOnly() => _databases.CacheOn.Database.Query(SeedDataset.Index, s_countOnly).TotalResults;

    /// <summary>
    /// The timings' own work in one warm query, which always does it: the eight <see cref="Stopwatch.GetTimestamp"/>
    /// calls of a query whose documents all come from the cache, and the duration recorded on a histogram nobody
    /// listens to (as in a process without OpenTelemetry). Its share of the warm query is the timings' cost.
    /// </summary>
    [Benchmark(Description = "timings' own work (8 timestamps + histogram)")]
    public long TimingsOwnWork()
    {
        long sum = 0;
        for (var i = 0; i < 8; i++)
            sum += Stopwatch.GetTimestamp() & 1;
        _duration.Record(sum, new KeyValuePair<string, object?>(QueryTelemetry.IndexTag, SeedDataset.Index));
        return sum;
    }

    private static long Query(DocumentDatabase database) =>
        SeedDataset.SumCartIds(database.Query(SeedDataset.Index, SeedDataset.SeedQuery).Results, SeedDataset.Carts);
}
