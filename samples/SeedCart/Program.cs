using System.Diagnostics;
using RavenLite.Database;
using RavenLite.Storage.Documents;

// The scenario RavenLite exists for: 1,024 copies of the 2011 seed cart, written and read back.
var dataDirectory = args.Length > 0 ? args[0] : Path.Combine(Environment.CurrentDirectory, "data");
var seed = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "seed-cart.bson"));
var metadata = DocumentContent.FromBson(seed.AsSpan(0, 33));
var data = DocumentContent.FromBson(seed.AsSpan(33));
var keys = Enumerable.Range(0, 1024).Select(i => $"carts/{i}").ToList();

using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = dataDirectory });
Console.WriteLine($"RavenLite: database in {Path.GetFullPath(dataDirectory)} ({db.Options.Engine})");

var clock = Stopwatch.StartNew();
db.Batch(keys.Select(k => BatchCommand.Put(k, data, metadata)).ToList());
Console.WriteLine($"put 1,024 seed carts in one batch: {clock.Elapsed.TotalMilliseconds:F1} ms");

for (var round = 1; round <= 3; round++)
{
    clock.Restart();
    var carts = db.Get(keys);
    var items = carts.Sum(c => c!.Data.GetProperty("itemList").GetArrayLength());
    Console.WriteLine($"read 1,024 carts back (round {round}): {clock.Elapsed.TotalMilliseconds:F2} ms, {items} items");
}

var stats = db.GetStatistics();
Console.WriteLine($"documents: {stats.Documents}, last etag: {stats.LastEtag}, " +
    $"by entity: {string.Join(", ", stats.ByEntityName.Select(p => $"{p.Key}={p.Value}"))}");
