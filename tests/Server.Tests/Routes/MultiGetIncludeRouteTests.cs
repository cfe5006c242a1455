using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

public sealed class MultiGetIncludeRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task Include_paths_add_the_referenced_documents_once_and_not_those_already_in_the_results()
    {
        await _server.PutAsync("icustomers/1", """{"Name":"ayende"}""");
        await _server.PutAsync("iproducts/a", """{"Name":"a"}""");
        await _server.PutAsync("iorders/1", """{"CustomerId":"icustomers/1","Lines":[{"ProductId":"iproducts/a"},{"ProductId":"iproducts/a"},{"ProductId":"iproducts/none"}]}""");
        await _server.PutAsync("iorders/2", """{"CustomerId":"iorders/1","Lines":[]}""");

        var response = await _server.Client.PostAsync("/queries?include=CustomerId&include=Lines[].ProductId",
            TestServer.Json("""["iorders/1","iorders/2"]"""));
        var body = await JsonAssert.ReadAsync(response, HttpStatusCode.OK);

        Assert.Equal(2, body.GetProperty("Results").GetArrayLength());
        var included = body.GetProperty("Includes").EnumerateArray()
            .Select(d => d.GetProperty("@metadata").GetProperty("@id").GetString()!).Order().ToArray();
        Assert.Equal(["icustomers/1", "iproducts/a"], included);
    }

    [Fact]
    public async Task Without_include_there_is_no_Includes_section_and_a_bad_path_is_400()
    {
        var plain = await JsonAssert.ReadAsync(await _server.Client.PostAsync("/queries", TestServer.Json("""["x/1"]""")), HttpStatusCode.OK);
        Assert.False(plain.TryGetProperty("Includes", out _));

        var error = await JsonAssert.ErrorAsync(await _server.Client.PostAsync("/queries?include=Lines[0].Id", TestServer.Json("""["x/1"]""")),
            HttpStatusCode.BadRequest);
        Assert.Contains("Lines[0].Id", error, StringComparison.Ordinal);
    }
}
