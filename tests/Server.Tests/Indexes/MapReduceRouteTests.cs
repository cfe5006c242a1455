using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Indexes;

public sealed class MapReduceRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const string Definition = """
        {"EntityName": "MrOrder",
         "Fields": [{"Name": "Customer", "Path": "customer"}, {"Name": "Price", "Path": "lines[].price", "Sort": "Double"}],
         "Reduce": {"GroupBy": ["Customer"], "Aggregates": [{"Name": "Count", "Function": "Count"},
                                                            {"Name": "Total", "Function": "Sum", "Field": "Price"}]}}
        """;

    private readonly TestServer _server = fixture.Server;
    private HttpClient Client => _server.Client;

    [Fact]
    public async Task A_map_reduce_index_put_over_http_answers_queries_with_one_result_per_group()
    {
        var created = await JsonAssert.ReadAsync(await Client.PutAsync("/indexes/MrOrders/Totals", TestServer.Json(Definition)), HttpStatusCode.Created);
        Assert.True(created.GetProperty("Changed").GetBoolean());
        var definition = await JsonAssert.ReadAsync(await Client.GetAsync("/indexes/MrOrders/Totals?definition=yes"), HttpStatusCode.OK);
        Assert.Equal("Sum", definition.GetProperty("Reduce").GetProperty("Aggregates")[1].GetProperty("Function").GetString());

        await _server.PutAsync("mrorders/1", """{"customer": "ayende", "lines": [{"price": 1.5}, {"price": 2}]}""", "MrOrder");
        await _server.PutAsync("mrorders/2", """{"customer": "ayende", "lines": [{"price": 10}]}""", "MrOrder");
        await _server.PutAsync("mrorders/3", """{"customer": "oren", "lines": [{"price": 4}]}""", "MrOrder");

        var page = await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/MrOrders/Totals?query=Total:[5 TO *]&sort=-Total&waitForNonStaleResults=true"), HttpStatusCode.OK);

        Assert.Equal(1, page.GetProperty("TotalResults").GetInt32());
        var ayende = Assert.Single(page.GetProperty("Results").EnumerateArray());
        Assert.Equal("ayende", ayende.GetProperty("Customer").GetString());
        Assert.Equal(3, ayende.GetProperty("Count").GetInt32());
        Assert.Equal(13.5m, ayende.GetProperty("Total").GetDecimal());
    }

    [Theory]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a"}], "Reduce": {"GroupBy": ["B"], "Aggregates": [{"Name": "N", "Function": "Count"}]}}""", "GroupBy[0] 'B' is not a mapped field")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a"}], "Reduce": {"GroupBy": ["A"], "Aggregates": [{"Name": "N", "Function": "Mode"}]}}""", "Reduce.Aggregates[0].Function is 'Mode'")]
    [InlineData("""{"Fields": [{"Name": "A", "Path": "a"}], "Reduce": {"GroupBy": ["A"], "Aggregates": [{"Name": "N", "Function": "Sum", "Field": "A"}]}}""", "not numeric")]
    public async Task A_bad_reduce_is_refused_with_400_naming_the_part(string definition, string expected)
    {
        var message = await JsonAssert.ErrorAsync(await Client.PutAsync("/indexes/MrBad/Index", TestServer.Json(definition)), HttpStatusCode.BadRequest);
        Assert.Contains(expected, message, StringComparison.Ordinal);
    }
}
