using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class IndexDefinitionRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const string OrdersDefinition = """{"Fields": [{"Name": "Customer", "Path": "customer"}, {"Name": "Total", "Path": "total", "Sort": "Long"}]}""";
    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Fact]
    public async Task Get_indexes_lists_the_built_in_index_with_statistics_and_definition()
    {
        var list = await JsonAssert.ReadAsync(await Client.GetAsync("/indexes"), HttpStatusCode.OK);
        var builtIn = list.EnumerateArray().Single(i => i.GetProperty("Name").GetString() == "Raven/DocumentsByEntityName");
        Assert.True(builtIn.GetProperty("IsBuiltIn").GetBoolean());
        Assert.Equal(JsonValueKind.Number, builtIn.GetProperty("DocumentCount").ValueKind);
        Assert.Equal(JsonValueKind.Number, builtIn.GetProperty("LastIndexedEtag").ValueKind);
        Assert.Contains(builtIn.GetProperty("IsStale").ValueKind, new[] { JsonValueKind.True, JsonValueKind.False });
        Assert.Equal("Tag", builtIn.GetProperty("Definition").GetProperty("Fields")[0].GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Definition_yes_returns_the_definition_json()
    {
        var definition = await JsonAssert.ReadAsync(await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?definition=yes"), HttpStatusCode.OK);
        Assert.Equal("Raven/DocumentsByEntityName", definition.GetProperty("Name").GetString());
        Assert.Equal(["Tag", "LastModified"], definition.GetProperty("Fields").EnumerateArray().Select(f => f.GetProperty("Name").GetString()));
        await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/Orders/Missing?definition=yes"), HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task Put_creates_replaces_and_delete_removes_a_user_index()
    {
        var created = await Client.PutAsync("/indexes/Orders/ByCustomer", TestServer.Json(OrdersDefinition));
        var body = await JsonAssert.ReadAsync(created, HttpStatusCode.Created);
        Assert.Equal("Orders/ByCustomer", body.GetProperty("Index").GetString());
        Assert.True(body.GetProperty("Changed").GetBoolean());
        Assert.Equal("/indexes/Orders/ByCustomer", created.Headers.Location?.OriginalString);

        var definition = await JsonAssert.ReadAsync(await Client.GetAsync("/indexes/orders/bycustomer?definition=yes"), HttpStatusCode.OK);
        Assert.Equal("Orders/ByCustomer", definition.GetProperty("Name").GetString());
        Assert.Equal("Long", definition.GetProperty("Fields")[1].GetProperty("Sort").GetString());

        // The GET form goes back in as it is; the same definition again changes nothing.
        var same = await JsonAssert.ReadAsync(
            await Client.PutAsync("/indexes/Orders/ByCustomer", TestServer.Json(definition.GetRawText())), HttpStatusCode.Created);
        Assert.False(same.GetProperty("Changed").GetBoolean());

        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("orders/1", """{"customer":"ayende","total":3}""", "Order")).StatusCode);
        var found = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Orders/ByCustomer?query=Customer:ayende&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.Equal("orders/1", Assert.Single(found.GetProperty("Results").EnumerateArray()).GetProperty("@metadata").GetProperty("@id").GetString());

        Assert.Equal(HttpStatusCode.NoContent, (await Client.DeleteAsync("/indexes/Orders/ByCustomer")).StatusCode);
        await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/Orders/ByCustomer?definition=yes"), HttpStatusCode.NotFound);
        await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/Orders/ByCustomer?query=Customer:ayende"), HttpStatusCode.NotFound);
        await JsonAssert.ErrorAsync(await Client.DeleteAsync("/indexes/Orders/ByCustomer"), HttpStatusCode.NotFound);
    }

    [Theory]
    [InlineData("""{"Fields": []}""", "no fields")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a[0]"}]}""", "field 0")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a", "Analysis": "Fuzzy"}]}""", "Fuzzy")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a"}], "Colour": "red"}""", "Unknown property 'Colour'")]
    [InlineData("""{"Name": "Other/Name", "Fields": [{"Name": "A", "Path": "a"}]}""", "differs from the index named in the URL")]
    [InlineData("""{"Fields": [""", "not valid JSON")]
    [InlineData("""[1]""", "must be a JSON object")]
    [InlineData("", "empty")]
    public async Task Put_of_an_invalid_definition_returns_400_with_the_message(string definition, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.PutAsync("/indexes/Bad/Index", TestServer.Json(definition)), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.DoesNotContain("(Parameter", message, StringComparison.Ordinal);
        await JsonAssert.ErrorAsync(await Client.GetAsync("/indexes/Bad/Index?definition=yes"), HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task Put_with_a_matching_name_in_the_body_is_accepted()
    {
        var body = """{"Name": "people/byname", "Fields": [{"Name": "Name", "Path": "name"}]}""";
        Assert.Equal(HttpStatusCode.Created, (await Client.PutAsync("/indexes/People/ByName", TestServer.Json(body))).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await Client.DeleteAsync("/indexes/People/ByName")).StatusCode);
    }

    [Fact]
    public async Task Built_in_indexes_refuse_put_and_delete_with_403()
    {
        var put = await Client.PutAsync("/indexes/Raven/DocumentsByEntityName", TestServer.Json(OrdersDefinition));
        Assert.Contains("built-in", await JsonAssert.ErrorAsync(put, HttpStatusCode.Forbidden, ErrorCodes.BuiltInIndex), StringComparison.Ordinal);
        await JsonAssert.ErrorAsync(await Client.PutAsync("/indexes/Raven/Mine", TestServer.Json(OrdersDefinition)), HttpStatusCode.Forbidden, ErrorCodes.BuiltInIndex);
        await JsonAssert.ErrorAsync(await Client.DeleteAsync("/indexes/Raven/DocumentsByEntityName"), HttpStatusCode.Forbidden, ErrorCodes.BuiltInIndex);
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?definition=yes")).StatusCode);
    }

    [Fact]
    public async Task A_stale_index_says_so_and_waiting_past_the_timeout_returns_504()
    {
        using (PauseIndexing())
        {
            Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("stale/1", "{}", "Stale")).StatusCode);
            var stale = await JsonAssert.ReadAsync(await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Stale"), HttpStatusCode.OK);
            Assert.True(stale.GetProperty("IsStale").GetBoolean());
            var stats = await JsonAssert.ReadAsync(await Client.GetAsync("/stats"), HttpStatusCode.OK);
            Assert.Contains("Raven/DocumentsByEntityName", stats.GetProperty("StaleIndexes").EnumerateArray().Select(e => e.GetString()));

            var message = await JsonAssert.ErrorAsync(
                await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Stale&waitForNonStaleResults=true&timeout=0.2"),
                HttpStatusCode.GatewayTimeout, ErrorCodes.IndexStale);
            Assert.Contains("still stale after waiting 0.2 s", message, StringComparison.Ordinal);
        }
        var fresh = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Stale&waitForNonStaleResults=true"), HttpStatusCode.OK);
        Assert.False(fresh.GetProperty("IsStale").GetBoolean());
        Assert.Equal(1, fresh.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task A_missing_index_name_is_a_400()
    {
        await JsonAssert.ErrorAsync(await Client.PutAsync("/indexes/", TestServer.Json(OrdersDefinition)), HttpStatusCode.BadRequest);
    }

    /// <summary>Holds the background indexer back (a test hook internal to RavenLite.Indexing).</summary>
    private IDisposable PauseIndexing() =>
        _server.App.Services.GetRequiredService<DocumentDatabase>().Indexes.PauseIndexing();
}
