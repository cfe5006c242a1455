using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Newtonsoft.Json.Linq;
using RavenLite.Database;
using RavenLite.Indexing.Definitions;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Issue 32: <c>PATCH</c> and <c>DELETE /bulk_docs/{index}?query=</c> start set operations followed at <c>/operations/{id}</c>.</summary>
public sealed class SetOperationRouteTests : IAsyncLifetime
{
    private const string Index = "Items/ByGroup";
    private TestServer _server = null!;

    private DocumentDatabase Database => _server.App.Services.GetRequiredService<DocumentDatabase>();

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        Database.PutIndex(new IndexDefinition { Name = Index, Fields = [new IndexFieldDefinition { Name = "Group", Path = "Group" }] });
        Database.Batch([.. Enumerable.Range(0, 300).Select(i =>
            BatchCommand.Put($"items/{i}", new JObject { ["Group"] = $"g{i % 3}", ["N"] = i }, new JObject { ["Raven-Entity-Name"] = "Item" }))]);
        await Database.WaitForNonStaleAsync(Index, TimeSpan.FromMinutes(1));
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private static StringContent JsonPatch(string json) => new(json, new MediaTypeHeaderValue("application/json-patch+json"));

    /// <summary>Waits on the operation itself (no polling), then reads its status over HTTP.</summary>
    private async Task<JsonElement> FinishedAsync(HttpResponseMessage started)
    {
        var body = await JsonAssert.ReadAsync(started, HttpStatusCode.Accepted);
        var id = body.GetProperty("Id").GetInt64();
        Assert.Equal($"/operations/{id}", started.Headers.Location?.OriginalString);
        await Database.GetOperation(id)!.WaitAsync(TimeSpan.FromMinutes(1));
        return await JsonAssert.ReadAsync(await _server.Client.GetAsync($"/operations/{id}"), HttpStatusCode.OK);
    }

    [Fact]
    public async Task Patch_by_query_answers_202_and_patches_exactly_the_matches()
    {
        var request = new HttpRequestMessage(HttpMethod.Patch, $"/bulk_docs/{Index}?query=Group:g1")
        {
            Content = JsonPatch("""[{"op":"increment","path":"/N","value":1000},{"op":"add","path":"/Patched","value":true}]"""),
        };

        var status = await FinishedAsync(await _server.Client.SendAsync(request));

        Assert.Equal("Completed", status.GetProperty("State").GetString());
        Assert.Equal("Patch", status.GetProperty("Kind").GetString());
        Assert.Equal(Index, status.GetProperty("IndexName").GetString());
        Assert.Equal(100, status.GetProperty("Matched").GetInt32());
        Assert.Equal(100, status.GetProperty("Changed").GetInt32());
        for (var i = 0; i < 300; i++)
        {
            using var document = JsonDocument.Parse(await _server.Client.GetStringAsync($"/docs/items/{i}"));
            Assert.Equal(i % 3 == 1 ? i + 1000 : i, document.RootElement.GetProperty("N").GetInt32());
        }
    }

    [Fact]
    public async Task Delete_by_query_answers_202_and_deletes_exactly_the_matches()
    {
        var status = await FinishedAsync(await _server.Client.DeleteAsync($"/bulk_docs/{Index}?query=Group:g2"));

        Assert.Equal("Completed", status.GetProperty("State").GetString());
        Assert.Equal("Delete", status.GetProperty("Kind").GetString());
        Assert.Equal(100, status.GetProperty("Changed").GetInt32());
        Assert.Equal(HttpStatusCode.NotFound, (await _server.Client.GetAsync("/docs/items/2")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await _server.Client.GetAsync("/docs/items/1")).StatusCode);
        Assert.Equal(200, Database.GetStatistics().Documents);
        var list = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/operations"), HttpStatusCode.OK);
        Assert.Equal(status.GetProperty("Id").GetInt64(), list[0].GetProperty("Id").GetInt64());
    }

    [Fact]
    public async Task A_refused_document_is_listed_in_the_status()
    {
        var request = new HttpRequestMessage(HttpMethod.Patch, $"/bulk_docs/{Index}?query=Group:g0&stopOnFailure=false")
        {
            Content = JsonPatch("""[{"op":"test","path":"/N","value":0},{"op":"add","path":"/Patched","value":true}]"""),
        };

        var status = await FinishedAsync(await _server.Client.SendAsync(request));

        Assert.Equal("Completed", status.GetProperty("State").GetString());
        Assert.Equal(1, status.GetProperty("Changed").GetInt32());
        Assert.Equal(99, status.GetProperty("FailedCount").GetInt32());
        var failure = status.GetProperty("Failures")[0];
        Assert.StartsWith("items/", failure.GetProperty("Key").GetString(), StringComparison.Ordinal);
        Assert.False(string.IsNullOrEmpty(failure.GetProperty("Error").GetString()));
    }

    [Fact]
    public async Task A_stale_index_is_409_index_stale_unless_allowStale()
    {
        using (Database.Indexes.PauseIndexing())
        {
            (await _server.PutAsync("items/new", """{"Group":"g0"}""")).EnsureSuccessStatusCode();

            await JsonAssert.ErrorAsync(await _server.Client.DeleteAsync($"/bulk_docs/{Index}?query=Group:g0"), HttpStatusCode.Conflict, ErrorCodes.IndexStale);
            Assert.Equal(301, Database.GetStatistics().Documents);

            var status = await FinishedAsync(await _server.Client.DeleteAsync($"/bulk_docs/{Index}?query=Group:g0&allowStale=true"));
            Assert.Equal(100, status.GetProperty("Changed").GetInt32());
        }
    }

    [Fact]
    public async Task Cancelling_a_finished_operation_changes_nothing_and_unknown_ids_are_404()
    {
        var status = await FinishedAsync(await _server.Client.DeleteAsync($"/bulk_docs/{Index}?query=Group:g1"));
        var id = status.GetProperty("Id").GetInt64();

        var cancelled = await JsonAssert.ReadAsync(await _server.Client.DeleteAsync($"/operations/{id}"), HttpStatusCode.Accepted);

        Assert.Equal("Completed", cancelled.GetProperty("State").GetString());
        await JsonAssert.ErrorAsync(await _server.Client.GetAsync("/operations/999"), HttpStatusCode.NotFound, ErrorCodes.OperationNotFound);
        await JsonAssert.ErrorAsync(await _server.Client.DeleteAsync("/operations/nope"), HttpStatusCode.NotFound, ErrorCodes.OperationNotFound);
    }

    [Fact]
    public async Task Bad_requests_change_nothing()
    {
        await JsonAssert.ErrorAsync(await _server.Client.DeleteAsync("/bulk_docs/Nope?query=Group:g1"), HttpStatusCode.NotFound, ErrorCodes.IndexNotFound);
        await JsonAssert.ErrorAsync(await _server.Client.DeleteAsync($"/bulk_docs/{Index}?query=Group:(("), HttpStatusCode.BadRequest, ErrorCodes.QueryInvalid);
        var wrongType = new HttpRequestMessage(HttpMethod.Patch, $"/bulk_docs/{Index}") { Content = TestServer.Json("""[]""") };
        await JsonAssert.ErrorAsync(await _server.Client.SendAsync(wrongType), HttpStatusCode.UnsupportedMediaType, ErrorCodes.UnsupportedMediaType);
        var badPatch = new HttpRequestMessage(HttpMethod.Patch, $"/bulk_docs/{Index}") { Content = JsonPatch("""[{"op":"nope","path":"/a"}]""") };
        await JsonAssert.ErrorAsync(await _server.Client.SendAsync(badPatch), HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Equal(300, Database.GetStatistics().Documents);
        Assert.Empty(Database.GetOperations());
    }

    [Fact]
    public async Task An_expired_document_is_404_before_the_task_deletes_it()
    {
        var past = DateTimeOffset.UtcNow.AddMinutes(-1).ToString("O");
        var request = new HttpRequestMessage(HttpMethod.Put, "/docs/sessions/1") { Content = TestServer.Json("""{"n":1}""") };
        request.Headers.TryAddWithoutValidation(MetadataNames.Expires, past);
        (await _server.Client.SendAsync(request)).EnsureSuccessStatusCode();

        Assert.Equal(HttpStatusCode.NotFound, (await _server.Client.GetAsync("/docs/sessions/1")).StatusCode);
        Assert.Equal(1, Database.DeleteExpired());
        Assert.Null(Database.Documents.Get("sessions/1"));
    }
}

/// <summary>Issue 32: <c>--expiry-interval-seconds</c> sets the database's expiry task, off by default.</summary>
public sealed class ExpiryIntervalSwitchTests
{
    [Fact]
    public async Task The_switch_sets_the_database_interval_and_a_bad_value_stops_the_start()
    {
        await using (var off = await TestServer.StartAsync())
            Assert.Equal(TimeSpan.Zero, off.App.Services.GetRequiredService<DocumentDatabase>().Options.ExpiryInterval);
        await using (var on = await TestServer.StartAsync(["--expiry-interval-seconds", "90"]))
            Assert.Equal(TimeSpan.FromSeconds(90), on.App.Services.GetRequiredService<DocumentDatabase>().Options.ExpiryInterval);
        var refused = Assert.Throws<ServerStartupException>(() =>
            RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--expiry-interval-seconds", "-1"]));
        Assert.Contains("--expiry-interval-seconds", refused.Message, StringComparison.Ordinal);
    }
}
