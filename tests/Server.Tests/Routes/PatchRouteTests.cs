using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class PatchRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    private static StringContent JsonPatch(string json) => new(json, new MediaTypeHeaderValue("application/json-patch+json"));

    private Task<HttpResponseMessage> PatchAsync(string key, string patch, string? ifMatch = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Patch, "/docs/" + key) { Content = JsonPatch(patch) };
        if (ifMatch is not null)
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        return Client.SendAsync(request);
    }

    private async Task<string> PutAsync(string key, string json) =>
        (await JsonAssert.ReadAsync(await _server.PutAsync(key, json, "Order"), HttpStatusCode.Created)).GetProperty("ETag").GetString()!;

    private async Task<string> BodyAsync(string key) => await Client.GetStringAsync("/docs/" + key);

    [Fact]
    public async Task Patch_applies_the_operations_and_returns_the_new_etag()
    {
        await PutAsync("porders/1", """{"Status":"open","Total":10}""");
        var response = await PatchAsync("porders/1", """[{"op":"test","path":"/Status","value":"open"},{"op":"replace","path":"/Status","value":"paid"},{"op":"increment","path":"/Total","value":5}]""");

        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
        var etag = body.GetProperty("ETag").GetString();
        Assert.Equal($"\"{etag}\"", response.Headers.ETag!.ToString());
        Assert.Equal("""{"Status":"paid","Total":15}""", await BodyAsync("porders/1"));
        var get = await Client.GetAsync("/docs/porders/1");
        Assert.Equal("Order", get.Headers.GetValues("Raven-Entity-Name").Single());
    }

    [Fact]
    public async Task Failing_test_is_409_and_writes_nothing()
    {
        var etag = await PutAsync("porders/2", """{"Status":"open","Total":10}""");
        var error = await JsonAssert.ErrorAsync(
            await PatchAsync("porders/2", """[{"op":"replace","path":"/Total","value":0},{"op":"test","path":"/Status","value":"closed"}]"""),
            HttpStatusCode.Conflict);

        Assert.Contains("porders/2", error, StringComparison.Ordinal);
        Assert.Equal($"\"{etag}\"", (await Client.GetAsync("/docs/porders/2")).Headers.ETag!.ToString());
        Assert.Equal("""{"Status":"open","Total":10}""", await BodyAsync("porders/2"));
    }

    [Fact]
    public async Task Bad_path_is_422_and_writes_nothing()
    {
        await PutAsync("porders/3", """{"Total":10}""");
        await JsonAssert.ErrorAsync(await PatchAsync("porders/3", """[{"op":"replace","path":"/Total","value":1},{"op":"remove","path":"/Nope/Deeper"}]"""),
            HttpStatusCode.UnprocessableEntity);
        Assert.Equal("""{"Total":10}""", await BodyAsync("porders/3"));
    }

    [Theory]
    [InlineData("""{"op":"add"}""")]
    [InlineData("""[{"op":"nope","path":"/a"}]""")]
    [InlineData("""[{"op":"add","path":"/a"}]""")]
    [InlineData("not json")]
    public async Task Malformed_patch_is_400(string patch)
    {
        await PutAsync("porders/4", """{"Total":10}""");
        await JsonAssert.ErrorAsync(await PatchAsync("porders/4", patch), HttpStatusCode.BadRequest);
        Assert.Equal("""{"Total":10}""", await BodyAsync("porders/4"));
    }

    [Fact]
    public async Task If_match_is_honoured()
    {
        var etag = await PutAsync("porders/5", """{"Total":10}""");
        await JsonAssert.ErrorAsync(await PatchAsync("porders/5", """[{"op":"replace","path":"/Total","value":1}]""", "\"999999\""), HttpStatusCode.Conflict);
        Assert.Equal("""{"Total":10}""", await BodyAsync("porders/5"));

        await JsonAssert.ReadAsync(await PatchAsync("porders/5", """[{"op":"replace","path":"/Total","value":1}]""", $"\"{etag}\""), HttpStatusCode.OK);
        Assert.Equal("""{"Total":1}""", await BodyAsync("porders/5"));
    }

    [Fact]
    public async Task Missing_document_is_404_and_other_content_types_415()
    {
        await JsonAssert.ErrorAsync(await PatchAsync("porders/none", """[{"op":"add","path":"/a","value":1}]"""), HttpStatusCode.NotFound);

        await PutAsync("porders/6", """{"Total":10}""");
        var request = new HttpRequestMessage(HttpMethod.Patch, "/docs/porders/6") { Content = TestServer.Json("""[{"op":"add","path":"/a","value":1}]""") };
        var response = await Client.SendAsync(request);
        await JsonAssert.ErrorAsync(response, HttpStatusCode.UnsupportedMediaType);
        Assert.Equal("application/json-patch+json", response.Headers.GetValues("Accept-Patch").Single());
    }

    [Fact]
    public async Task Concurrent_increments_from_8_clients_lose_none()
    {
        await PutAsync("pcounters/1", """{"Count":0}""");
        await Task.WhenAll(Enumerable.Range(0, 8).Select(async _ =>
        {
            for (var i = 0; i < 50; i++)
                await JsonAssert.ReadAsync(await PatchAsync("pcounters/1", """[{"op":"increment","path":"/Count","value":1}]"""), HttpStatusCode.OK);
        }));
        Assert.Equal("""{"Count":400}""", await BodyAsync("pcounters/1"));
    }

    [Fact]
    public async Task Bulk_docs_patch_command_is_atomic_with_the_rest_of_the_batch()
    {
        await PutAsync("porders/7", """{"Status":"open","Total":10}""");
        var failing = """
            [{"Method":"PUT","Key":"porders/8","Document":{"a":1}},
             {"Method":"PATCH","Key":"porders/7","Patch":[{"op":"test","path":"/Status","value":"closed"}]}]
            """;
        var error = await JsonAssert.ErrorAsync(await Client.PostAsync("/bulk_docs", TestServer.Json(failing)), HttpStatusCode.Conflict);
        Assert.StartsWith("Batch command 1:", error, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/porders/8")).StatusCode);

        var working = """
            [{"Method":"PUT","Key":"porders/8","Document":{"a":1}},
             {"Method":"PATCH","Key":"porders/7","Patch":[{"op":"increment","path":"/Total","value":1}]},
             {"Method":"PATCH","Key":"porders/none","Patch":[{"op":"increment","path":"/Total","value":1}]}]
            """;
        var results = await JsonAssert.ReadAsync(await Client.PostAsync("/bulk_docs", TestServer.Json(working)), HttpStatusCode.OK);
        Assert.Equal("PATCH", results[1].GetProperty("Method").GetString());
        Assert.True(results[1].GetProperty("Patched").GetBoolean());
        Assert.False(results[2].GetProperty("Patched").GetBoolean());
        Assert.Equal(JsonValueKind.Null, results[2].GetProperty("Etag").ValueKind);
        Assert.Equal("""{"Status":"open","Total":11}""", await BodyAsync("porders/7"));
    }
}
