using System.Net;
using System.Net.Http.Headers;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 28: a JSON body holding numbers a double cannot (decimal.MaxValue, ulong.MaxValue, 28-digit decimals) was
/// stored as doubles, so GET gave other numbers back. PUT and PATCH now store them exactly; GET gives the same text.
/// </summary>
public sealed class ExactNumberTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const string Numbers =
        """{"max":79228162514264337593543950335,"min":-79228162514264337593543950335,"tiny":0.0000000000000000000000000001,"digits":1234567890.123456789012345678,"ulong":18446744073709551615,"long":-9223372036854775808,"odd":9007199254740993,"dmax":1.7976931348623157E+308,"eps":5E-324,"big":1E+300,"sum":0.30000000000000004}""";

    private readonly TestServer _server = fixture.Server;

    [Fact]
    public async Task A_put_body_with_extreme_numbers_reads_back_as_the_same_numbers()
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("exact/1", Numbers)).StatusCode);

        // The same text, but for 0.0000000000000000000000000001: a double holds it, and writes it shortest.
        Assert.Equal(Numbers.Replace("0.0000000000000000000000000001", "1E-28", StringComparison.Ordinal),
            await _server.Client.GetStringAsync("/docs/exact/1"));
    }

    [Fact]
    public async Task A_patch_with_extreme_numbers_stores_them_exactly_and_increments_them_exactly()
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.PutAsync("exact/2", """{"n":1,"d":1234567890.123456789012345678,"u":18446744073709551614}""")).StatusCode);
        var request = new HttpRequestMessage(HttpMethod.Patch, "/docs/exact/2")
        {
            Content = new StringContent(
                """[{"op":"replace","path":"/n","value":[79228162514264337593543950335,0.1234567890123456789012345678,1e300,5E-324]},{"op":"increment","path":"/d","value":1},{"op":"increment","path":"/u","value":1}]""",
                new MediaTypeHeaderValue("application/json-patch+json")),
        };

        Assert.Equal(HttpStatusCode.OK, (await _server.Client.SendAsync(request)).StatusCode);

        Assert.Equal("""{"n":[79228162514264337593543950335,0.1234567890123456789012345678,1E+300,5E-324],"d":1234567891.123456789012345678,"u":18446744073709551615}""",
            await _server.Client.GetStringAsync("/docs/exact/2"));
    }

    [Fact]
    public async Task A_number_that_cannot_be_stored_exactly_is_refused_with_400()
    {
        var response = await _server.PutAsync("exact/3", """{"n":123456789012345678901234567890123456789}""");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("cannot store exactly", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NotFound, (await _server.Client.GetAsync("/docs/exact/3")).StatusCode);
    }
}
