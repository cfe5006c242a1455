using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using Newtonsoft.Json.Linq;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Routes;

public sealed class ChangesRouteTests : IAsyncLifetime
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);
    private TestServer _server = null!;

    public async Task InitializeAsync() => _server = await TestServer.StartAsync(
        ["--RavenLite:Changes:HeartbeatInterval=00:00:00.200", "--urls", "http://127.0.0.1:0"]);

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private DocumentDatabase Database => _server.App.Services.GetRequiredService<DocumentDatabase>();

    private static JObject Entity(string name) => new() { ["Raven-Entity-Name"] = name };

    private static async Task<List<StreamEvent>> ReadDocumentEventsAsync(EventStreamReader stream, int count, CancellationToken token)
    {
        var events = new List<StreamEvent>();
        while (events.Count < count && await stream.NextAsync(token) is { } next)
        {
            if (next.Name is "put" or "delete")
                events.Add(next);
        }
        return events;
    }

    [Fact]
    public async Task Ten_thousand_concurrent_writes_arrive_exactly_once_across_a_reconnect_with_Last_Event_ID()
    {
        const int writers = 8, perWriter = 1250, total = writers * perWriter;
        using var cts = new CancellationTokenSource(s_timeout);
        var db = Database;
        var writing = Task.WhenAll(Enumerable.Range(0, writers).Select(w => Task.Run(() =>
        {
            for (var i = 0; i < perWriter; i++)
                db.Put($"w{w}/{i}", new JObject { ["n"] = i }, mode: CommitMode.Lazy);
        })));

        List<StreamEvent> received;
        await using (var first = await EventStreamReader.OpenAsync(_server.Address, "/changes"))
            received = await ReadDocumentEventsAsync(first, total / 3, cts.Token);
        await using (var second = await EventStreamReader.OpenAsync(_server.Address, "/changes", lastEventId: received[^1].Id))
            received.AddRange(await ReadDocumentEventsAsync(second, total - received.Count, cts.Token));
        await writing;

        Assert.Equal(total, received.Count);
        Assert.Equal(total, received.Select(e => e.Json.GetProperty("Key").GetString()).Distinct().Count());
        Assert.Equal(Enumerable.Range(1, total).Select(e => e.ToString(System.Globalization.CultureInfo.InvariantCulture)), received.Select(e => e.Id));
    }

    [Fact]
    public async Task Filters_by_key_prefix_and_collection()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        string[] queries = ["key=CARTS/1", "prefix=users/", "collection=order&collection=Misc", "key=orders/1&prefix=carts/&collection=User"];
        // Open before the writes: an open feed keeps the indexer from purging the tombstones it has yet to deliver.
        var streams = new List<EventStreamReader>();
        foreach (var query in queries)
            streams.Add(await EventStreamReader.OpenAsync(_server.Address, "/changes?indexes=false&" + query));
        var db = Database;
        db.Put("orders/1", new JObject(), Entity("Order"));
        db.Put("carts/1", new JObject(), Entity("Cart"));
        db.Put("users/1", new JObject(), Entity("User"));
        // One transaction, so no feed can see users/2's put before its delete.
        db.Batch([BatchCommand.Put("users/2", new JObject(), Entity("User")), BatchCommand.Delete("users/2")]);
        db.Put("misc/1", new JObject(), Entity("Misc"));

        async Task<string[]> Keys(EventStreamReader stream, int count) =>
            [.. (await ReadDocumentEventsAsync(stream, count, cts.Token)).Select(e => $"{e.Name} {e.Json.GetProperty("Key").GetString()}")];

        Assert.Equal(["put carts/1"], await Keys(streams[0], 1));
        Assert.Equal(["put users/1", "delete users/2"], await Keys(streams[1], 2));
        Assert.Equal(["put orders/1", "put misc/1"], await Keys(streams[2], 2));
        Assert.Equal(["put orders/1", "put carts/1", "put users/1"], await Keys(streams[3], 3));
        foreach (var stream in streams)
            await stream.DisposeAsync();
    }

    [Fact]
    public async Task Sends_index_events_and_heartbeats_on_the_server_clock_when_idle()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        var clock = new FakeTimeProvider();
        // An hour between heartbeats: only the fake clock passing it can make one come within the test's timeout.
        await using var server = await TestServer.StartAsync(["--RavenLite:Changes:HeartbeatInterval=01:00:00", "--urls", "http://127.0.0.1:0"],
            builder => builder.Services.AddSingleton<TimeProvider>(clock));
        server.App.Services.GetRequiredService<DocumentDatabase>().Put("carts/1", new JObject(), Entity("Cart"));
        await using var stream = await EventStreamReader.OpenAsync(server.Address, "/changes");
        Assert.Equal("text/event-stream", stream.Response.Content.Headers.ContentType!.MediaType);

        var index = await stream.NextAsync(cts.Token);
        while (index is { Name: not "index" })
            index = await stream.NextAsync(cts.Token);
        Assert.Null(index!.Id);
        Assert.Equal("1", index.Json.GetProperty("Etag").GetString());
        Assert.Equal(0, stream.Heartbeats);
        var reading = stream.NextAsync(cts.Token); // counts heartbeats while it waits for the next event
        while (stream.Heartbeats == 0)
        {
            Assert.False(cts.IsCancellationRequested, "no heartbeat came after the server's clock passed the interval");
            clock.Advance(TimeSpan.FromHours(1));
            await Task.Delay(20); // a poll's pause: the heartbeat needs the clock above, never this wait
        }
        server.App.Services.GetRequiredService<DocumentDatabase>().Put("carts/2", new JObject(), Entity("Cart"));
        var next = await reading;
        Assert.Equal("put", next!.Name);
    }

    [Theory]
    [InlineData("/changes?from=abc")]
    [InlineData("/changes?indexes=maybe")]
    public async Task Bad_parameters_are_400(string url)
    {
        var response = await _server.Client.GetAsync(url);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task Shutdown_closes_open_streams_with_a_closed_event()
    {
        using var cts = new CancellationTokenSource(s_timeout);
        Database.Put("carts/1", new JObject(), Entity("Cart"));
        await using var stream = await EventStreamReader.OpenAsync(_server.Address, "/changes?indexes=false");
        Assert.Equal("put", (await stream.NextAsync(cts.Token))!.Name);

        var stopping = _server.App.StopAsync(cts.Token);
        var closed = await stream.NextAsync(cts.Token);
        Assert.Equal("closed", closed!.Name);
        Assert.Equal("1", closed.Json.GetProperty("LastEtag").GetString());
        Assert.Null(await stream.NextAsync(cts.Token));
        await stopping.WaitAsync(TimeSpan.FromSeconds(20));
    }
}
