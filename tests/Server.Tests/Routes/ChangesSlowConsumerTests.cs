using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Newtonsoft.Json.Linq;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Routes;

public sealed class ChangesSlowConsumerTests
{
    [Fact]
    public async Task A_client_that_stops_reading_is_cut_off_with_an_event_and_writers_carry_on()
    {
        await using var server = await TestServer.StartAsync(
        [
            "--RavenLite:Changes:BufferSize=64", "--RavenLite:Changes:SlowConsumerTimeout=00:00:00.300",
            "--RavenLite:Changes:CutOffGrace=00:00:30", "--urls", "http://127.0.0.1:0",
        ]);
        var db = server.App.Services.GetRequiredService<DocumentDatabase>();
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        await using var stream = await EventStreamReader.OpenAsync(server.Address, "/changes?indexes=false", receiveBuffer: 4096);
        await WaitUntilAsync(() => db.OpenChangesFeeds == 1, "the server never opened the database's feed");

        // The client reads nothing while 60,000 changes (several MB of events) are written.
        var writes = Stopwatch.StartNew();
        for (var batch = 0; batch < 60; batch++)
            db.Batch(Enumerable.Range(0, 1000).Select(i => BatchCommand.Put($"docs/{batch}/{i}", new JObject { ["n"] = i })).ToList());
        writes.Stop();
        Assert.Equal(60_000, db.GetStatistics().Documents);
        // The server lets go of the database's feed when it gives up on the client.
        await WaitUntilAsync(() => db.OpenChangesFeeds == 0, "the server never cut the client off");

        var etags = new List<long>();
        StreamEvent? last = null;
        while (await stream.NextAsync(cts.Token) is { } next)
        {
            last = next;
            if (next.Name == "put")
                etags.Add(long.Parse(next.Id!, System.Globalization.CultureInfo.InvariantCulture));
        }

        Assert.Equal("cut-off", last!.Name);
        Assert.True(etags.Count < 60_000, $"{etags.Count} events were sent before the cut-off");
        Assert.Equal(Enumerable.Range(1, etags.Count).Select(e => (long)e), etags);
        Assert.Equal(etags[^1].ToString(System.Globalization.CultureInfo.InvariantCulture), last.Json.GetProperty("LastEtag").GetString());
    }

    private static async Task WaitUntilAsync(Func<bool> condition, string failure)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, failure);
            await Task.Delay(20);
        }
    }
}
