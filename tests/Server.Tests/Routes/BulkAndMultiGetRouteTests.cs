using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class BulkAndMultiGetRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Fact]
    public async Task Bulk_docs_applies_puts_and_deletes_and_reports_each()
    {
        await _server.PutAsync("bulk/old", "{}");
        var body = """
            [{"Method":"PUT","Key":"bulk/1","Document":{"a":1},"Metadata":{"Raven-Entity-Name":"Bulk","@id":"ignored"},"Etag":null},
             {"method":"put","key":"bulk/2","document":{"a":2}},
             {"Method":"DELETE","Key":"bulk/old"}]
            """;
        var results = await JsonAssert.ReadAsync(await Client.PostAsync("/bulk_docs", TestServer.Json(body)), HttpStatusCode.OK);
        var list = results.EnumerateArray().ToList();
        Assert.Equal(["PUT", "PUT", "DELETE"], list.Select(r => r.GetProperty("Method").GetString()));
        Assert.Equal(["bulk/1", "bulk/2", "bulk/old"], list.Select(r => r.GetProperty("Key").GetString()));
        Assert.All(list, r => Assert.False(string.IsNullOrEmpty(r.GetProperty("Etag").GetString())));
        Assert.True(list[2].GetProperty("Deleted").GetBoolean());

        var one = await Client.GetAsync("/docs/bulk/1");
        Assert.Equal("Bulk", one.Headers.GetValues("Raven-Entity-Name").Single());
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/bulk/old")).StatusCode);
    }

    [Fact]
    public async Task Bulk_docs_with_a_stale_etag_applies_nothing_and_names_the_command()
    {
        await _server.PutAsync("atomic/keep", """{"v":1}""");
        var body = """
            [{"Method":"PUT","Key":"atomic/new","Document":{"v":1}},
             {"Method":"DELETE","Key":"atomic/keep"},
             {"Method":"PUT","Key":"atomic/keep","Document":{"v":2},"Etag":"999999"}]
            """;
        var problem = await JsonAssert.ProblemAsync(await Client.PostAsync("/bulk_docs", TestServer.Json(body)), HttpStatusCode.Conflict,
            ErrorCodes.ConcurrencyConflict);
        Assert.StartsWith("Batch command 2:", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal("atomic/keep", problem.GetProperty("key").GetString());
        Assert.Equal("999999", problem.GetProperty("expectedEtag").GetString());
        Assert.Equal(2, problem.GetProperty("commandIndex").GetInt32());
        // Command 1 deleted it earlier in the same batch: at command 2 it does not exist.
        Assert.Equal(System.Text.Json.JsonValueKind.Null, problem.GetProperty("actualEtag").ValueKind);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/atomic/new")).StatusCode);
        Assert.Equal("""{"v":1}""", await Client.GetStringAsync("/docs/atomic/keep"));
    }

    [Theory]
    [InlineData("""[{"Method":"PUT","Key":"b/1","Document":{}},{"Method":"PUT","Key":" ","Document":{}}]""", "Batch command 1:")]
    [InlineData("""[{"Method":"PUT","Key":"b/1","Document":{}},{"Method":"PATCH","Key":"b/2"}]""", "Batch command 1: Method")]
    [InlineData("""[{"Method":"PUT","Key":"b/1","Document":[1]}]""", "Batch command 0: a PUT needs Document")]
    [InlineData("""[{"Method":"PUT","Key":"b/1"}]""", "Batch command 0:")]
    [InlineData("""[{"Method":"PUT","Key":"b/1","Document":{},"Etag":"soon"}]""", "Batch command 0: Etag")]
    [InlineData("""[42]""", "Batch command 0:")]
    [InlineData("""{"Method":"PUT"}""", "must be a JSON array")]
    [InlineData("""[]""", "at least one command")]
    [InlineData("""[{"Method":"PUT",""", "not valid JSON")]
    public async Task Bad_bulk_docs_return_400_and_write_nothing(string body, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.PostAsync("/bulk_docs", TestServer.Json(body)), HttpStatusCode.BadRequest,
            ErrorCodes.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/b/1")).StatusCode);
    }

    [Fact]
    public async Task Multi_get_returns_documents_in_request_order_with_nulls_for_missing()
    {
        await _server.PutAsync("multi/1", """{"n":1}""", "Multi");
        await _server.PutAsync("multi/2", """{"n":2}""");
        var response = await Client.PostAsync("/queries", TestServer.Json("""["multi/2","multi/missing","MULTI/1"]"""));
        var results = (await JsonAssert.ReadAsync(response, HttpStatusCode.OK)).GetProperty("Results").EnumerateArray().ToList();
        Assert.Equal(3, results.Count);
        Assert.Equal(2, results[0].GetProperty("n").GetInt32());
        Assert.Equal(JsonValueKind.Null, results[1].ValueKind);
        Assert.Equal("multi/1", results[2].GetProperty("@metadata").GetProperty("@id").GetString());
        Assert.Equal("Multi", results[2].GetProperty("@metadata").GetProperty("Raven-Entity-Name").GetString());
    }

    [Fact]
    public async Task A_large_multi_get_streams_every_document_intact()
    {
        var filler = new string('x', 1000);
        var commands = string.Join(",", Enumerable.Range(0, 300).Select(i =>
            $$"""{"Method":"PUT","Key":"large/{{i}}","Document":{"i":{{i}},"text":"{{filler}}","nested":{"n":[1,{}]}""" + "}}"));
        Assert.Equal(HttpStatusCode.OK, (await Client.PostAsync("/bulk_docs", TestServer.Json($"[{commands}]"))).StatusCode);

        var keys = string.Join(",", Enumerable.Range(0, 300).Select(i => $"\"large/{i}\""));
        var response = await Client.PostAsync("/queries", TestServer.Json($"[{keys}]"));
        Assert.True(response.Headers.TransferEncodingChunked); // streamed, not built whole and measured
        var results = (await JsonAssert.ReadAsync(response, HttpStatusCode.OK)).GetProperty("Results").EnumerateArray().ToList();
        Assert.Equal(Enumerable.Range(0, 300), results.Select(r => r.GetProperty("i").GetInt32()));
        Assert.All(results, r => Assert.Equal(filler, r.GetProperty("text").GetString()));
    }

    [Fact]
    public async Task Non_ASCII_keys_and_text_round_trip()
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("caf%C3%A9/%E2%82%AC", """{"name":"Zoë \"quoted\""}""")).StatusCode);
        // The stored JSON may escape non-ASCII (\u00EB); what it says is what was put.
        var stored = JsonDocument.Parse(await Client.GetStringAsync("/docs/CAF%C3%89/%E2%82%AC")).RootElement;
        Assert.Equal("Zoë \"quoted\"", stored.GetProperty("name").GetString());
        var results = await JsonAssert.ReadAsync(await Client.PostAsync("/queries", TestServer.Json("""["café/€"]""")), HttpStatusCode.OK);
        var document = results.GetProperty("Results")[0];
        Assert.Equal("café/€", document.GetProperty("@metadata").GetProperty("@id").GetString());
        Assert.Equal("Zoë \"quoted\"", document.GetProperty("name").GetString());
    }

    [Theory]
    [InlineData("""{"keys":[]}""", "must be a JSON array")]
    [InlineData("""["a", 3]""", "Key 1 must be a string")]
    [InlineData("""["a", ""]""", "empty")]
    [InlineData("""["a" """, "not valid JSON")]
    public async Task Bad_multi_get_bodies_return_400(string body, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.PostAsync("/queries", TestServer.Json(body)), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Documents_larger_than_the_streaming_buffer_come_back_byte_for_byte()
    {
        // 200 KB of data: several times the writer's 32 KB block, in one document, twice in one response.
        var large = "{\"text\":\"" + new string('x', 200_000) + "\",\"café\":\"über ☃\"}";
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("large/1", large, "Large")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("large/2", large, "Large")).StatusCode);

        var results = await JsonAssert.ReadAsync(
            await Client.PostAsync("/queries", TestServer.Json("""["large/1","missing/1","large/2"]""")), HttpStatusCode.OK);
        var list = results.GetProperty("Results").EnumerateArray().ToList();
        Assert.Equal(JsonValueKind.Null, list[1].ValueKind);
        foreach (var document in new[] { list[0], list[2] })
        {
            Assert.Equal(200_000, document.GetProperty("text").GetString()!.Length);
            Assert.Equal("über ☃", document.GetProperty("café").GetString());
            var metadata = document.GetProperty("@metadata");
            Assert.Equal("Large", metadata.GetProperty("Raven-Entity-Name").GetString());
            Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$", metadata.GetProperty("Last-Modified").GetString());
        }
    }
}
