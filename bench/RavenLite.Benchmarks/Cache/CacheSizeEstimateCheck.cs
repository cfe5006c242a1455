using System.Globalization;
using RavenLite.Benchmarks.Infrastructure;

namespace RavenLite.Benchmarks.Cache;

/// <summary>
/// Not a timing: checks the cache's per-entry size estimate against what the GC says the cached documents
/// keep alive (heap after a full collection, with only the cache holding them), for each parsed state.
/// Run with <c>-- --cache-size-check</c>.
/// </summary>
public static class CacheSizeEstimateCheck
{
    private const int Count = 5_000;

    public static void Run()
    {
        var keys = Enumerable.Range(0, Count).Select(i => $"carts/{i}").ToList();
        using var store = new BenchmarkStore(cacheEnabled: true, keys);
        Console.WriteLine("| cached form | measured bytes/entry | estimated bytes/entry | estimate / measured |");
        Console.WriteLine("|---|---:|---:|---:|");
        foreach (var (name, parseData, parseMetadata) in new[]
                 { ("JSON text only", false, false), ("+ Data parsed", true, false), ("+ Data and Metadata parsed", true, true) })
        {
            // Twice, so one-time allocations (JIT, pools, dictionary growth) fall in the first pass.
            for (var pass = 0; pass < 2; pass++)
            {
                store.Store.ClearCache();
                var before = GC.GetTotalMemory(forceFullCollection: true);
                Read(store, keys, parseData, parseMetadata);
                var after = GC.GetTotalMemory(forceFullCollection: true);
                var stats = store.Store.GetCacheStatistics();
                if (pass == 0)
                    continue;
                var measured = (after - before) / (double)stats.Entries;
                var estimated = stats.Bytes / (double)stats.Entries;
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {name} | {measured:F0} | {estimated:F0} | {estimated / measured:F2} |"));
            }
        }
    }

    private static void Read(BenchmarkStore store, List<string> keys, bool parseData, bool parseMetadata)
    {
        foreach (var doc in store.Store.Get(keys))
        {
            if (parseData)
                _ = doc!.Data;
            if (parseMetadata)
                _ = doc!.Metadata;
        }
    }
}
