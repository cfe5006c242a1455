using System.Diagnostics;
using Newtonsoft.Json.Linq;
using RavenLite.Client;
using RavenLite.Database;
using RavenLite.Samples.SeedCart;

// The scenario RavenLite exists for: 1,024 copies of the 2011 seed cart, stored as typed objects, read back and queried.
var dataDirectory = args.Length > 0 ? args[0] : Path.Combine(Environment.CurrentDirectory, "data");
var seed = JObject.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "seed-cart.json")))["data"]!;

using var store = RavenStore.OpenEmbedded(new DocumentDatabaseOptions { DataDirectory = dataDirectory });
Console.WriteLine($"RavenLite: database in {Path.GetFullPath(dataDirectory)} ({store.Database!.Options.Engine})");

var clock = Stopwatch.StartNew();
using (var session = store.OpenSession())
{
    for (var i = 0; i < 1024; i++)
        session.Store(seed.ToObject<Cart>()!, $"carts/{i}");
    session.SaveChanges(); // one atomic batch
}
Console.WriteLine($"stored 1,024 seed carts in one SaveChanges: {clock.Elapsed.TotalMilliseconds:F1} ms");

var ids = Enumerable.Range(0, 1024).Select(i => $"carts/{i}").ToList();
for (var round = 1; round <= 3; round++)
{
    clock.Restart();
    using var session = store.OpenSession();
    var carts = session.Load<Cart>(ids); // one round trip
    Console.WriteLine($"loaded 1,024 carts (round {round}): {clock.Elapsed.TotalMilliseconds:F2} ms, " +
        $"{carts.Sum(c => c!.Items.Count)} items");
}

using (var session = store.OpenSession())
{
    var carts = session.Query<Cart>().Take(1024).WaitForNonStaleResults().Statistics(out var stats).ToList();
    Console.WriteLine($"Query<Cart>(): {carts.Count} of {stats.TotalResults} carts, stale: {stats.IsStale}");
    var first = session.Load<Cart>("carts/0")!;    // the query already loaded it: no round trip, same instance
    first.Items.Add(new Item { ProductId = 7, Name = "sulphur", Price = 1.5, Quantity = 1 });
    session.SaveChanges();                          // writes carts/0 only: nothing else changed
    Console.WriteLine($"changed carts/0 and saved: etag {session.GetEtagFor(first)}, {session.NumberOfRequests} requests in the session");
}

var statistics = store.Database!.GetStatistics();
Console.WriteLine($"documents: {statistics.Documents}, last etag: {statistics.LastEtag}, " +
    $"by entity: {string.Join(", ", statistics.ByEntityName.Select(p => $"{p.Key}={p.Value}"))}");
