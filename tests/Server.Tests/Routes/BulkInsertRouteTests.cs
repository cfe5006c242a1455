using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using Microsoft.AspNetCore.Builder;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class BulkInsertRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    private static StringContent Lines(IEnumerable<string> lines) =>
        new(string.Join('\n', lines) + "\n", new MediaTypeHeaderValue("application/x-ndjson"));

    private static string Line(string key, int value) =>
        $$$"""{"key":"{{{key}}}","metadata":{"Raven-Entity-Name":"Carts"},"data":{"v":{{{value}}}}}""";

    private async Task<HttpStatusCode> StatusOfAsync(string key) => (await Client.GetAsync("/docs/" + key)).StatusCode;

    [Fact]
    public async Task Bulk_insert_writes_every_line_and_answers_the_count()
    {
        var lines = Enumerable.Range(1, 12).Select(i => Line("ok/" + i, i)).Append("").Append(Line("ok/13", 13));
        var answer = await JsonAssert.ReadAsync(await Client.PostAsync("/bulk_insert?batchSize=5", Lines(lines)), HttpStatusCode.OK);
        Assert.Equal(13, answer.GetProperty("Written").GetInt64());
        Assert.Equal("""{"v":13}""", await Client.GetStringAsync("/docs/ok/13"));
        var one = await Client.GetAsync("/docs/ok/1");
        Assert.Equal("Carts", one.Headers.GetValues("Raven-Entity-Name").Single());
    }

    [Fact]
    public async Task Lines_sent_in_odd_pieces_across_many_reads_are_each_stored_as_sent()
    {
        // Lines from a few bytes to past a buffer segment, sent in pieces that cut lines anywhere, in batches that span
        // many reads: the server parses a line where the pipe holds it, so a line read wrong or overwritten before its
        // batch is written would show as a document that differs from its line.
        var random = new Random(41);
        var values = Enumerable.Range(1, 3_000).Select(i => new string((char)('a' + i % 26), random.Next(4) == 0 ? random.Next(4_000, 12_000) : random.Next(1, 60))).ToArray();
        var body = Encoding.UTF8.GetBytes(string.Concat(values.Select((value, i) =>
            $$$"""{"key":"pieces/{{{i}}}","metadata":{"Raven-Entity-Name":"Pieces"},"data":{"i":{{{i}}},"text":"{{{value}}}"}}""" + "\n")));
        var answer = await JsonAssert.ReadAsync(await Client.PostAsync("/bulk_insert?batchSize=700", new PiecesContent(body, random)), HttpStatusCode.OK);

        Assert.Equal(values.Length, answer.GetProperty("Written").GetInt64());
        for (var i = 0; i < values.Length; i++)
            Assert.Equal($$$"""{"i":{{{i}}},"text":"{{{values[i]}}}"}""", await Client.GetStringAsync($"/docs/pieces/{i}"));
    }

    /// <summary>A body written in pieces of 1 byte to 20 KB, each flushed, so the server reads it in many uneven parts.</summary>
    private sealed class PiecesContent : HttpContent
    {
        private readonly byte[] _body;
        private readonly Random _random;

        public PiecesContent(byte[] body, Random random)
        {
            (_body, _random) = (body, random);
            Headers.ContentType = new MediaTypeHeaderValue("application/x-ndjson");
        }

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            for (var at = 0; at < _body.Length;)
            {
                var length = Math.Min(_body.Length - at, _random.Next(3) == 0 ? _random.Next(1, 16) : _random.Next(16, 20_000));
                await stream.WriteAsync(_body.AsMemory(at, length));
                await stream.FlushAsync();
                at += length;
            }
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }

    [Fact]
    public async Task A_bad_line_is_a_400_naming_it_with_earlier_batches_kept_and_nothing_of_its_batch_written()
    {
        var lines = Enumerable.Range(1, 7).Select(i => Line("bad/" + i, i)).Append("""{"key":"bad/8","data":[1]}""")
            .Append(Line("bad/9", 9));
        var detail = await JsonAssert.ErrorAsync(await Client.PostAsync("/bulk_insert?batchSize=5", Lines(lines)), HttpStatusCode.BadRequest,
            ErrorCodes.BadRequest);
        Assert.StartsWith("Line 8:", detail, StringComparison.Ordinal);
        Assert.Contains("lines 6-8", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, await StatusOfAsync("bad/5"));
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("bad/6"));
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("bad/9"));
    }

    [Fact]
    public async Task An_etag_of_0_refuses_an_existing_key_and_writes_none_of_its_batch()
    {
        await _server.PutAsync("etag/2", """{"v":0}""");
        var lines = new[]
        {
            """{"key":"etag/1","etag":0,"data":{"v":1}}""",
            """{"key":"etag/2","etag":0,"data":{"v":2}}""",
        };
        await JsonAssert.ErrorAsync(await Client.PostAsync("/bulk_insert", Lines(lines)), HttpStatusCode.Conflict, ErrorCodes.ConcurrencyConflict);
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("etag/1"));
        Assert.Equal("""{"v":0}""", await Client.GetStringAsync("/docs/etag/2"));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("many")]
    [InlineData("10001")]
    public async Task A_bad_batch_size_is_a_400(string batchSize)
    {
        var detail = await JsonAssert.ErrorAsync(await Client.PostAsync("/bulk_insert?batchSize=" + batchSize, Lines([Line("size/1", 1)])),
            HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Contains("batchSize", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("size/1"));
    }

    [Fact]
    public async Task A_connection_cut_mid_way_leaves_whole_batches_only()
    {
        // The server's own, to know when it has finished with the cut request (whatever it wrote is written then).
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = await TestServer.StartAsync(addRoutes: app => app.Use(async (context, next) =>
        {
            try
            {
                await next(context);
            }
            finally
            {
                if (context.Request.Path == "/bulk_insert")
                    ended.TrySetResult();
            }
        }));
        async Task<HttpStatusCode> StatusOfAsync(string key) => (await server.Client.GetAsync("/docs/" + key)).StatusCode;
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(server.Address.Host, server.Address.Port);
        var stream = tcp.GetStream();
        var body = string.Join('\n', Enumerable.Range(1, 7).Select(i => Line("cut/" + i, i))) + "\n";
        var request = $"POST /bulk_insert?batchSize=5 HTTP/1.1\r\nHost: {server.Address.Authority}\r\nContent-Type: application/x-ndjson\r\n" +
            $"Transfer-Encoding: chunked\r\n\r\n{Encoding.UTF8.GetByteCount(body):x}\r\n{body}\r\n";
        await stream.WriteAsync(Encoding.UTF8.GetBytes(request));
        await stream.FlushAsync();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (await StatusOfAsync("cut/5") != HttpStatusCode.OK && DateTime.UtcNow < deadline)
            await Task.Delay(20);
        Assert.Equal(HttpStatusCode.OK, await StatusOfAsync("cut/5"));
        tcp.Client.LingerState = new LingerOption(true, 0);
        tcp.Close();
        await ended.Task.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("cut/6"));
        Assert.Equal(HttpStatusCode.NotFound, await StatusOfAsync("cut/7"));
    }

    [Fact]
    public async Task A_line_longer_than_the_body_limit_is_a_400_naming_it_with_earlier_batches_kept()
    {
        await using var server = await TestServer.StartAsync(["--RavenLite:MaxRequestBodyBytes=4096"]);
        var oversized = $$$"""{"key":"long/7","data":{"text":"{{{new string('x', 8192)}}}"}}""";
        var lines = Enumerable.Range(1, 6).Select(i => Line("long/" + i, i)).Append(oversized).Append(Line("long/8", 8));
        // The whole body is over the limit too: it binds each line instead, so the first five lines are written.
        var detail = await JsonAssert.ErrorAsync(await server.Client.PostAsync("/bulk_insert?batchSize=5", Lines(lines)),
            HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.StartsWith("Line 7 is longer than 4096 bytes.", detail, StringComparison.Ordinal);
        Assert.Contains("5 documents before it were", detail, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/docs/long/5")).StatusCode);
        foreach (var key in new[] { "long/6", "long/7", "long/8" })
            Assert.Equal(HttpStatusCode.NotFound, (await server.Client.GetAsync("/docs/" + key)).StatusCode);
    }
}
