using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;

namespace RavenLite.Database.Tests.Changes;

public sealed class ChangesFeedTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly DocumentDatabase _db;

    public ChangesFeedTests() => _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir });

    public void Dispose()
    {
        _db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private static JObject Doc(int i) => new() { ["n"] = i };

    private static JObject Entity(string name) => new() { ["Raven-Entity-Name"] = name };

    [Fact]
    public async Task History_then_live_in_etag_order_with_puts_and_deletes()
    {
        _db.Put("orders/1", Doc(1), Entity("Order"));
        _db.Put("orders/2", Doc(2), Entity("Order"));
        _db.Delete("orders/1");
        using var cts = new CancellationTokenSource(s_timeout);
        var seen = new List<DatabaseChange>();
        await foreach (var change in _db.Changes(0, cts.Token))
        {
            if (change.Kind == ChangeKind.IndexCaughtUp)
                continue;
            seen.Add(change);
            if (seen.Count == 2)
                _db.Put("orders/3", Doc(3), Entity("Order"));
            if (seen.Count == 3)
                break;
        }

        Assert.Equal([(ChangeKind.Put, "orders/2", 2L, "Order"), (ChangeKind.Delete, "orders/1", 3L, null), (ChangeKind.Put, "orders/3", 4L, "Order")],
            seen.Select(c => (c.Kind, c.Key!, c.Etag, c.EntityName)).ToArray());
    }

    [Fact]
    public async Task Ten_thousand_concurrent_writes_arrive_exactly_once_across_a_resume()
    {
        const int writers = 8, perWriter = 1250, total = writers * perWriter;
        using var cts = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var received = new List<DatabaseChange>();
        var writing = Task.WhenAll(Enumerable.Range(0, writers).Select(w => Task.Run(() =>
        {
            for (var i = 0; i < perWriter; i++)
                _db.Put($"w{w}/{i}", Doc(i), mode: Storage.CommitMode.Lazy);
        })));

        // First connection: stop part-way, as a dropped client would, then resume from the last etag it saw.
        await foreach (var change in _db.Changes(0, cts.Token))
        {
            if (change.Kind == ChangeKind.IndexCaughtUp)
                continue;
            received.Add(change);
            if (received.Count == total / 3)
                break;
        }
        await foreach (var change in _db.Changes(received[^1].Etag, cts.Token))
        {
            if (change.Kind == ChangeKind.IndexCaughtUp)
                continue;
            received.Add(change);
            if (received.Count == total)
                break;
        }
        await writing;

        Assert.Equal(total, received.Select(c => c.Key).Distinct().Count());
        Assert.Equal(received.Select(c => c.Etag).Order(), received.Select(c => c.Etag));
        Assert.Equal(Enumerable.Range(1, total).Select(e => (long)e), received.Select(c => c.Etag));
    }

    [Fact]
    public async Task Index_caught_up_event_follows_the_changes_it_covers()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        _db.Put("carts/1", Doc(1), Entity("Cart"));
        var sawPut = false;
        await foreach (var change in _db.Changes(0, cts.Token))
        {
            if (change.Kind == ChangeKind.Put)
            {
                sawPut = true;
                continue;
            }
            if (change.Kind == ChangeKind.IndexCaughtUp && change.Etag >= 1)
            {
                Assert.True(sawPut);
                Assert.Equal("Raven/DocumentsByEntityName", change.IndexName);
                break;
            }
        }
    }

    [Fact]
    public async Task Closing_the_database_ends_an_open_feed()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        _db.Put("a/1", Doc(1), Entity("A"));
        var feed = _db.Changes(0, cts.Token).GetAsyncEnumerator(cts.Token);
        Assert.True(await feed.MoveNextAsync()); // the feed is open: it delivered the put
        var reading = ReadToEndAsync(feed);

        _db.Dispose();

        await reading.WaitAsync(s_timeout);
        Assert.False(cts.IsCancellationRequested);
    }

    /// <summary>Reads <paramref name="feed"/> until it ends, however many index events it still delivers.</summary>
    private static async Task ReadToEndAsync(IAsyncEnumerator<DatabaseChange> feed)
    {
        await using (feed)
        {
            while (await feed.MoveNextAsync())
                Assert.Equal(ChangeKind.IndexCaughtUp, feed.Current.Kind);
        }
    }

    [Fact]
    public async Task Cancelling_stops_an_open_feed_with_OperationCanceledException()
    {
        using var cts = new CancellationTokenSource();
        _db.Put("a/1", Doc(1), Entity("A"));
        var feed = _db.Changes(0, cts.Token).GetAsyncEnumerator(cts.Token);
        Assert.True(await feed.MoveNextAsync()); // the feed is open: it delivered the put
        var reading = ReadToEndAsync(feed);

        await cts.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reading.WaitAsync(s_timeout));
    }

    [Fact]
    public async Task An_open_feed_keeps_the_indexer_from_purging_deletes_it_has_not_delivered()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        _db.Put("a/1", Doc(1), Entity("A"));
        await using var feed = _db.Changes(0, cts.Token).GetAsyncEnumerator(cts.Token);
        Assert.True(await feed.MoveNextAsync());
        Assert.Equal("a/1", feed.Current.Key);

        _db.Put("a/2", Doc(2), Entity("A"));
        _db.Delete("a/2");
        _db.Put("a/3", Doc(3), Entity("A"));
        await _db.WaitForNonStaleAsync("Raven/DocumentsByEntityName", s_timeout, cts.Token);
        var rest = new List<(ChangeKind, string?)>();
        while (rest.Count < 2 && await feed.MoveNextAsync())
        {
            if (feed.Current.Kind != ChangeKind.IndexCaughtUp)
                rest.Add((feed.Current.Kind, feed.Current.Key));
        }

        Assert.Equal([(ChangeKind.Delete, "a/2"), (ChangeKind.Put, "a/3")], rest);
    }

    [Fact]
    public void Feed_reads_headers_in_batches_and_merges_tombstones()
    {
        _db.Batch(Enumerable.Range(0, 3000).Select(i => BatchCommand.Put($"k/{i}", Doc(i))).ToList());
        _db.Delete("k/5");
        var store = _db.Documents;
        var first = store.GetChangesAfterEtag(0, 2000);
        var rest = store.GetChangesAfterEtag(first[^1].Etag, 2000);

        Assert.Equal(2000, first.Count);
        Assert.Equal(3000, first.Count + rest.Count); // 2,999 current puts (k/5's is gone) and its delete, last
        Assert.Equal((ChangeKind.Delete, "k/5", 3001L), (rest[^1].Kind, rest[^1].Key!, rest[^1].Etag));
    }
}
