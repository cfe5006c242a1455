using System.Collections.Concurrent;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Storage.Tests.Postgres;

/// <summary>
/// Etag order is commit order on PostgreSQL: writers on two engine instances (two servers) over one database, and a
/// reader tailing "everything after the last etag I saw" on a third, must see every write exactly once.
/// </summary>
public sealed class EtagTailingTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _first = new();
    private readonly TempDirectory _second = new();
    private readonly TempDirectory _tail = new();

    public void Dispose()
    {
        _first.Dispose();
        _second.Dispose();
        _tail.Dispose();
    }

    [PostgresFact]
    public void A_tailing_reader_sees_each_of_2000_writes_from_two_servers_exactly_once() => TailWhileWriting(2_000);

    [PostgresFact]
    [Trait("Category", "Slow")]
    public void A_tailing_reader_sees_each_of_10000_writes_from_two_servers_exactly_once() => TailWhileWriting(10_000);

    private static DocumentStore Open(TempDirectory folder, string connectionString) =>
        DocumentStore.Open(new StorageOptions
        {
            DataDirectory = folder.Path,
            Engine = StorageEngineKind.Postgres,
            ConnectionString = connectionString,
        });

    private void TailWhileWriting(int writes)
    {
        var database = TestPostgres.ForDirectory(_first.Path);
        using var first = Open(_first, database);
        using var second = Open(_second, database);
        using var tail = Open(_tail, database);
        const int writersPerServer = 5;
        var perWriter = writes / (2 * writersPerServer);
        var total = perWriter * 2 * writersPerServer;

        var writing = new List<Task>();
        foreach (var (store, server) in new[] { (first, "a"), (second, "b") })
        {
            for (var w = 0; w < writersPerServer; w++)
            {
                var writer = $"{server}{w}";
                writing.Add(Task.Factory.StartNew(() =>
                {
                    for (var i = 0; i < perWriter; i++)
                        store.Put($"tail/{writer}/{i}", StoreFactory.Json($$"""{"writer":"{{writer}}","i":{{i}}}"""), mode: CommitMode.Lazy);
                }, TaskCreationOptions.LongRunning));
            }
        }

        // The tail: each round asks for what comes after the highest etag seen so far, as an indexer does; it ends
        // with an empty round that began after every writer had finished.
        var seen = new Dictionary<long, string>();
        var keys = new HashSet<string>(StringComparer.Ordinal);
        long last = 0;
        var rounds = 0;
        while (true)
        {
            var writersDone = writing.TrueForAll(t => t.IsCompleted);
            var page = tail.GetDocumentsAfterEtag(last, 256, addToCache: false);
            rounds++;
            foreach (var document in page)
            {
                Assert.True(document.Etag > last, $"etag {document.Etag} came after {last}: out of order");
                Assert.True(seen.TryAdd(document.Etag, document.Key), $"etag {document.Etag} seen twice");
                Assert.True(keys.Add(document.Key), $"{document.Key} seen twice");
                last = document.Etag;
            }
            if (page.Count > 0)
                continue;
            if (writersDone)
                break;
            Thread.Sleep(1);
        }
        Task.WaitAll([.. writing]);

        output.WriteLine($"{total} writes by {2 * writersPerServer} writers on two engines; the tail read them in {rounds} rounds");
        // Every write was seen once, none was skipped: etags 1..total with no gap, each key once.
        Assert.Equal(total, keys.Count);
        Assert.Equal(Enumerable.Range(1, total).Select(e => (long)e), seen.Keys.Order());
        Assert.Equal(total, tail.GetCounts().Documents);
        Assert.Equal(total, tail.ReadLastEtag());
    }
}
