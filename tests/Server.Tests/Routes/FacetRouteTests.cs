using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Facets over HTTP: repeatable <c>facet=</c> on a query, counted from the index's doc values.</summary>
public sealed class FacetRouteTests : IAsyncLifetime
{
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        await _server.PutAsync("orders/1", """{"Customer":"Bob","Total":10.5,"Tags":["a","b"]}""", "Order");
        await _server.PutAsync("orders/2", """{"Customer":"Alice","Total":3,"Tags":["a"]}""", "Order");
        await _server.PutAsync("orders/3", """{"Customer":"Bob","Total":-2}""", "Order");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private static string Show(System.Text.Json.JsonElement facet) =>
        facet.GetProperty("Facet").GetString() + ": " + string.Join(" ", facet.GetProperty("Values").EnumerateArray()
            .Select(v => $"{v.GetProperty("Value").GetString()}={v.GetProperty("Count").GetInt64()}"))
        + $" | rest {facet.GetProperty("RemainingValues").GetInt32()}/{facet.GetProperty("RemainingCount").GetInt64()} missing {facet.GetProperty("Missing").GetInt64()}";

    [Fact]
    public async Task One_request_returns_several_facets_in_the_order_asked()
    {
        var ranges = Uri.EscapeDataString("Total@dec([* TO 0},[0 TO 10.5},[10.5 TO *])");
        var response = await _server.Client.GetAsync($"/indexes/dynamic/Order?pageSize=0&waitForNonStaleResults=true&facet=Customer&facet={ranges}&facet=Tags(top=1)");
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        Assert.Empty(body.GetProperty("Results").EnumerateArray());
        var facets = body.GetProperty("Facets").EnumerateArray().Select(Show).ToList();
        Assert.Equal(
        [
            "Customer: Bob=2 Alice=1 | rest 0/0 missing 0",
            "Total@dec([* TO 0},[0 TO 10.5},[10.5 TO *]): [* TO 0}=1 [0 TO 10.5}=1 [10.5 TO *]=1 | rest 0/0 missing 0",
            "Tags(top=1): a=2 | rest 1/1 missing 1",
        ], facets);
    }

    [Fact]
    public async Task The_same_query_with_other_facets_is_not_answered_from_the_response_cache()
    {
        var first = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/indexes/dynamic/Order?query=Customer:Bob&waitForNonStaleResults=true&facet=Total@dec"), HttpStatusCode.OK);
        var second = await JsonAssert.ReadAsync(await _server.Client.GetAsync("/indexes/dynamic/Order?query=Customer:Bob&waitForNonStaleResults=true&facet=Customer"), HttpStatusCode.OK);

        Assert.Equal("Total@dec: -2=1 10.5=1 | rest 0/0 missing 0", Show(first.GetProperty("Facets")[0]));
        Assert.Equal("Customer: Bob=2 | rest 0/0 missing 0", Show(second.GetProperty("Facets")[0]));
    }

    [Theory]
    [InlineData("Total@dec([0 TO 1)", "Query parameter 'facet'")]
    [InlineData("Customer@ci", "Facet 'Customer@ci'")]
    [InlineData("Total@dec([x TO *])", "range bound 'x'")]
    public async Task A_bad_facet_is_a_400_problem_naming_it(string facet, string message)
    {
        var response = await _server.Client.GetAsync($"/indexes/dynamic/Order?facet={Uri.EscapeDataString(facet)}");

        var error = await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Contains(message, error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_field_without_typed_doc_values_is_a_400_naming_the_field()
    {
        await JsonAssert.ReadAsync(await _server.Client.PutAsync("/indexes/Orders/ByCustomer",
            TestServer.Json("""{"Name":"Orders/ByCustomer","EntityName":"Order","Fields":[{"Name":"Customer","Path":"Customer","Sort":"String"}]}""")), HttpStatusCode.Created);

        var response = await _server.Client.GetAsync("/indexes/Orders/ByCustomer?facet=Customer");

        var error = await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
        Assert.Contains("index 'Orders/ByCustomer' has no typed field 'Customer'", error, StringComparison.Ordinal);
    }
}
