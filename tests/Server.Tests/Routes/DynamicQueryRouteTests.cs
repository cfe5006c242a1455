using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Collection queries over HTTP (<c>/indexes/dynamic/{collection}</c>), answered by auto indexes made on demand.</summary>
public sealed class DynamicQueryRouteTests : IAsyncLifetime
{
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        await _server.PutAsync("orders/1", """{"Customer":"Bob","Total":10.5}""", "Order");
        await _server.PutAsync("orders/2", """{"Customer":"Alice","Total":3}""", "Order");
        await _server.PutAsync("orders/3", """{"Customer":"Bob","Total":-2}""", "Order");
        await _server.PutAsync("users/1", """{"Customer":"Bob"}""", "User");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task A_query_of_a_collection_field_is_answered_by_an_auto_index_made_on_demand()
    {
        var response = await _server.Client.GetAsync("/indexes/dynamic/Order?query=Customer:Bob&waitForNonStaleResults=true");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
        Assert.Equal(["orders/1", "orders/3"], body.GetProperty("Results").EnumerateArray()
            .Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!).ToList());
        Assert.Equal("Auto/Order/ByCustomer", body.GetProperty("IndexName").GetString());

        var indexes = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/indexes"), HttpStatusCode.OK);
        Assert.Contains(indexes.EnumerateArray(), index => index.GetProperty("Name").GetString() == "Auto/Order/ByCustomer");
        Assert.Equal(HttpStatusCode.NoContent, (await _server.Client.DeleteAsync("/indexes/Auto/Order/ByCustomer")).StatusCode);
    }

    [Fact]
    public async Task Aggregates_and_sorts_by_kind_travel_over_HTTP()
    {
        var response = await _server.Client.GetAsync("/indexes/dynamic/Order?query=Total:*&sort=-Total@dec&aggregate=Total@dec&waitForNonStaleResults=true");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
        Assert.Equal(["orders/1", "orders/2", "orders/3"], body.GetProperty("Results").EnumerateArray()
            .Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!).ToList());
        var aggregate = body.GetProperty("Aggregate");
        Assert.Equal(3, aggregate.GetProperty("Count").GetInt64());
        Assert.Equal(11.5m, aggregate.GetProperty("ExactSum").GetDecimal());
        Assert.Equal(10.5m, aggregate.GetProperty("ExactMax").GetDecimal());
    }

    [Fact]
    public async Task A_bad_kind_is_a_400_problem()
    {
        var response = await _server.Client.GetAsync("/indexes/dynamic/Order?query=Total@nope:1");
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }
}
