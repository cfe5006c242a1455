using System.Net;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>No query, however long or deep, takes the server down: each is a 400 naming the limit, and the server keeps serving.</summary>
public sealed class QueryLimitRouteTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Client;

    public static TheoryData<string, string> HugeQueries => new()
    {
        { "Tag:" + new string('a', 100_000), "characters long" },
        { string.Concat(Enumerable.Repeat("Tag:a OR ", 11_112)).TrimEnd(" OR ".ToCharArray()), "characters long" },
        { new string('(', 5_000) + "Tag:a" + new string(')', 5_000), "nest more than 256" },
        { string.Concat(Enumerable.Repeat("Tag:a ", 2_000)), "clauses" },
    };

    [Theory]
    [MemberData(nameof(HugeQueries))]
    public async Task A_huge_or_deep_query_gets_a_400_and_the_server_lives(string query, string expected)
    {
        var message = await JsonAssert.ErrorAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=" + Uri.EscapeDataString(query)), HttpStatusCode.BadRequest);

        Assert.StartsWith("Cannot parse query", message, StringComparison.Ordinal);
        Assert.Contains(expected, message, StringComparison.Ordinal);
        Assert.True(message.Length < 2_000, "the message quotes the start of the query, not all of it");
        await JsonAssert.ReadAsync(
            await Client.GetAsync("/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=0&waitForNonStaleResults=true"), HttpStatusCode.OK);
    }
}
