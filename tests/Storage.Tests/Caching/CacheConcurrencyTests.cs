using System.Collections.Concurrent;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>
/// Several threads put and read the same keys for a fixed number of operations. After each acknowledged
/// put, that thread's next read of the key sees that etag or a newer one, and every document read is
/// exactly what was written under its etag: nothing stale, nothing torn.
/// </summary>
public sealed class CacheConcurrencyTests : IDisposable
{
    private const int Threads = 4;
    private const int OperationsPerThread = 300;
    private static readonly string[] Keys = ["carts/a", "carts/b", "carts/c", "carts/d", "carts/e"];

    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [EngineTheory]
    public void Writers_and_readers_of_the_same_keys_never_see_a_stale_or_torn_document(StorageEngineKind engine) =>
        Run(engine, cacheSizeBytes: null);

    [EngineTheory]
    public void The_same_holds_while_a_tiny_cache_evicts_all_the_time(StorageEngineKind engine) =>
        Run(engine, cacheSizeBytes: 3 * 1024);

    private void Run(StorageEngineKind engine, long? cacheSizeBytes)
    {
        using var store = Open(engine, _dir.Path, cacheSizeBytes: cacheSizeBytes);
        var written = new ConcurrentDictionary<long, Written>();
        var observations = new ConcurrentBag<Observed>();
        var errors = new ConcurrentBag<Exception>();
        using var start = new Barrier(Threads);

        var threads = Enumerable.Range(0, Threads).Select(t => new Thread(() =>
        {
            try
            {
                start.SignalAndWait();
                Work(store, t, written, observations);
            }
            catch (Exception ex)
            {
                errors.Add(ex);
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.Empty(errors);
        Assert.True(observations.Count >= Threads * OperationsPerThread / 2);
        foreach (var seen in observations)
        {
            Assert.True(written.TryGetValue(seen.Etag, out var expected), $"etag {seen.Etag} was read but never acknowledged");
            Assert.Equal(expected, seen.Content);
        }
        var stats = store.GetCacheStatistics();
        Assert.True(stats.Hits + stats.Misses > 0);
        if (cacheSizeBytes is { } limit)
        {
            Assert.InRange(stats.Bytes, 0, limit);
            Assert.True(stats.Evictions > 0, "a cache smaller than the live documents must evict");
        }
    }

    private static void Work(DocumentStore store, int thread, ConcurrentDictionary<long, Written> written, ConcurrentBag<Observed> observations)
    {
        var random = new Random(thread);
        var lastAcknowledged = new Dictionary<string, long>();
        for (var i = 0; i < OperationsPerThread; i++)
        {
            var key = Keys[random.Next(Keys.Length)];
            if (random.Next(2) == 0)
            {
                // Random casing: every casing must land on the same document and cache entry.
                var casing = random.Next(2) == 0 ? key : key.ToUpperInvariant();
                var content = new Written(casing, thread, i);
                var put = store.Put(casing, Json(content.ToJson()));
                written[put.Etag] = content;
                lastAcknowledged[key] = put.Etag;
            }
            var doc = Read(store, key, random.Next(4));
            if (lastAcknowledged.TryGetValue(key, out var acknowledged))
            {
                Assert.NotNull(doc);
                Assert.True(doc.Etag >= acknowledged, $"thread {thread} read etag {doc.Etag} of {key} after its put got {acknowledged}");
            }
            if (doc is not null)
                observations.Add(new Observed(doc.Etag, Written.From(doc)));
        }
    }

    private static Document? Read(DocumentStore store, string key, int path) => path switch
    {
        0 => store.Get(key),
        1 => store.Get([Keys[0], key.ToUpperInvariant(), Keys[^1]])[1],
        2 => store.GetDocuments(0, Keys.Length).SingleOrDefault(d => string.Equals(d.Key, key, StringComparison.OrdinalIgnoreCase)),
        _ => store.GetDocumentsAfterEtag(0, Keys.Length).SingleOrDefault(d => string.Equals(d.Key, key, StringComparison.OrdinalIgnoreCase)),
    };

    /// <summary>What one put wrote; every field is repeated in the body in two forms so a torn read shows.</summary>
    private sealed record Written(string Key, int Thread, int Sequence)
    {
        public string ToJson() =>
            $$"""{"key":"{{Key}}","thread":{{Thread}},"sequence":{{Sequence}},"stamp":"{{Key}}|{{Thread}}|{{Sequence}}","items":[{{string.Join(',', Enumerable.Repeat(Sequence, Sequence % 7))}}]}""";

        public static Written From(Document doc)
        {
            var data = doc.Data;
            var copy = doc.ToJObject();
            var read = new Written(data.GetProperty("key").GetString()!, data.GetProperty("thread").GetInt32(), data.GetProperty("sequence").GetInt32());
            Assert.Equal(doc.Key, read.Key);
            Assert.Equal($"{read.Key}|{read.Thread}|{read.Sequence}", data.GetProperty("stamp").GetString());
            Assert.Equal(read.Sequence % 7, data.GetProperty("items").GetArrayLength());
            Assert.Equal(read.Sequence, (int)copy["sequence"]!);
            Assert.Equal(System.Text.Encoding.UTF8.GetString(doc.DataJson.Span), copy.ToString(Newtonsoft.Json.Formatting.None));
            return read;
        }
    }

    private sealed record Observed(long Etag, Written Content);
}
