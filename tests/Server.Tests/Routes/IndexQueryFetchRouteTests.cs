using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary><c>fetch=</c> on an index query: each result is exactly the fetched fields; a bad path is a 400 and nothing else.</summary>
public sealed class IndexQueryFetchRouteTests : IAsyncLifetime
{
    private const string Carts = "/indexes/Raven/DocumentsByEntityName?query=Tag:FetchCart&waitForNonStaleResults=true&sort=LastModified";
    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        await _server.PutAsync("fcarts/1", """{"Customer":{"Name":"ayende","City":"Hadera"},"Total":12.5,"Lines":[{"ProductId":"p/1","Qty":2},{"ProductId":"p/2"}],"Notes":"long text"}""", "FetchCart");
        await _server.PutAsync("fcarts/2", """{"Total":3,"Lines":[]}""", "FetchCart");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task Each_result_holds_exactly_the_fetched_fields_in_the_order_asked()
    {
        var body = await JsonAssert.ReadAsync(
            await _server.Client.GetAsync(Carts + "&fetch=Total&fetch=Customer.Name&fetch=Lines[].ProductId&fetch=Customer"), HttpStatusCode.OK);

        var results = body.GetProperty("Results").EnumerateArray().ToArray();
        Assert.Equal(2, results.Length);
        Assert.All(results, result => Assert.Equal(["Total", "Customer.Name", "Lines[].ProductId", "Customer"],
            result.EnumerateObject().Select(member => member.Name)));
        Assert.Equal("""{"Total":12.5,"Customer.Name":"ayende","Lines[].ProductId":["p/1","p/2"],"Customer":{"Name":"ayende","City":"Hadera"}}""",
            results[0].GetRawText());
        Assert.Equal("""{"Total":3,"Customer.Name":null,"Lines[].ProductId":[],"Customer":null}""", results[1].GetRawText());
        Assert.Equal(2, body.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task Fetch_and_include_together_cut_the_results_and_still_include()
    {
        await _server.PutAsync("fcustomers/1", """{"Name":"x"}""", "Customer");
        await _server.PutAsync("fcarts/3", """{"CustomerId":"fcustomers/1","Total":7}""", "FetchCart");

        var body = await JsonAssert.ReadAsync(await _server.Client.GetAsync(Carts + "&fetch=Total&include=CustomerId"), HttpStatusCode.OK);

        Assert.Equal([12.5, 3, 7], body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Total").GetDouble()));
        Assert.Equal("fcustomers/1", body.GetProperty("Includes")[0].GetProperty("@metadata").GetProperty("@id").GetString());
    }

    [Fact]
    public async Task A_fetched_answer_and_the_whole_answer_are_kept_apart()
    {
        var whole = await JsonAssert.ReadAsync(await _server.Client.GetAsync(Carts), HttpStatusCode.OK);
        var fetched = await _server.Client.GetAsync(Carts + "&fetch=Total");
        var body = await JsonAssert.ReadAsync(fetched, HttpStatusCode.OK);

        Assert.True(whole.GetProperty("Results")[0].TryGetProperty("Notes", out _));
        Assert.Equal("""{"Total":12.5}""", body.GetProperty("Results")[0].GetRawText());
        Assert.Equal("""{"Total":12.5}""", (await JsonAssert.ReadAsync(await _server.Client.GetAsync(Carts + "&fetch=Total"), HttpStatusCode.OK))
            .GetProperty("Results")[0].GetRawText());
    }

    [Theory]
    [InlineData("fetch=Lines[0].ProductId", "Lines[0].ProductId")]
    [InlineData("fetch=Customer.", "Customer.")]
    [InlineData("fetch=", "")]
    public async Task A_bad_fetch_path_is_a_400_problem_naming_it(string parameter, string path)
    {
        var response = await _server.Client.GetAsync(Carts + "&" + parameter);
        var problem = await JsonAssert.ProblemAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);

        var detail = problem.GetProperty("detail").GetString()!;
        Assert.Contains("'fetch'", detail, StringComparison.Ordinal);
        Assert.Contains(path, detail, StringComparison.Ordinal);
        Assert.DoesNotContain("(Parameter", detail, StringComparison.Ordinal);
        Assert.False(problem.TryGetProperty("Results", out _));
        Assert.False(response.Headers.Contains("ETag"));
    }
}
