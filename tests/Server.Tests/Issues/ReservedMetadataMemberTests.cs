using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 30: a user field named <c>@metadata</c> gave answers with two <c>@metadata</c> members. Every write that would
/// store one is refused with a 400 saying why; one nested deeper is an ordinary field.
/// </summary>
public sealed class ReservedMetadataMemberTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Server.Client;

    private static StringContent Json(string json, string type = "application/json") => new(json, new MediaTypeHeaderValue(type));

    private static async Task AssertRefusedAsync(HttpResponseMessage response) =>
        Assert.Contains("top-level member named '@metadata'", await JsonAssert.ErrorAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest),
            StringComparison.Ordinal);

    [Theory]
    [InlineData("""{"@metadata":{"Raven-Entity-Name":"Fake"},"a":1}""")]
    [InlineData("""{"a":{"b":[1,{"c":2}]},"@metadata":1}""")]
    [InlineData("""{"\u0040metadata":true}""")]
    [InlineData("""{"@m\u0065tadata":true}""")]
    public async Task Put_post_and_bulk_put_of_a_document_with_a_top_level_metadata_member_are_refused(string document)
    {
        await AssertRefusedAsync(await Client.PutAsync("/docs/reserved/1", Json(document)));
        await AssertRefusedAsync(await Client.PostAsync("/docs", Json(document)));
        await AssertRefusedAsync(await Client.PostAsync("/bulk_docs", Json($$"""[{"Method":"PUT","Key":"reserved/2","Document":{{document}}}]""")));
        await AssertRefusedAsync(await Client.PostAsync("/bulk_insert", Json($$"""{"key":"reserved/3","data":{{document}}}""" + "\n", "application/x-ndjson")));
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync("/docs/reserved/1")).StatusCode);
    }

    [Fact]
    public async Task A_patch_adding_a_top_level_metadata_member_is_refused()
    {
        Assert.Equal(HttpStatusCode.Created, (await fixture.Server.PutAsync("reserved/4", """{"a":1}""")).StatusCode);

        await AssertRefusedAsync(await Client.SendAsync(new HttpRequestMessage(HttpMethod.Patch, "/docs/reserved/4")
        {
            Content = Json("""[{"op":"add","path":"/@metadata","value":{}}]""", "application/json-patch+json"),
        }));
        await AssertRefusedAsync(await Client.PostAsync("/bulk_docs",
            Json("""[{"Method":"PATCH","Key":"reserved/4","Patch":[{"op":"copy","from":"/a","path":"/@metadata"}]}]""")));
        Assert.Equal("""{"a":1}""", await Client.GetStringAsync("/docs/reserved/4"));
    }

    [Fact]
    public async Task A_metadata_member_nested_deeper_is_an_ordinary_field_and_answers_carry_one_metadata()
    {
        Assert.Equal(HttpStatusCode.Created, (await fixture.Server.PutAsync("reserved/5", """{"inner":{"@metadata":"mine"}}""")).StatusCode);

        var page = await JsonAssert.ReadAsync(await Client.PostAsync("/queries", Json("""["reserved/5"]""")), HttpStatusCode.OK);
        var text = page.GetProperty("Results")[0].GetRawText();

        Assert.Equal(1, CountOccurrences(text, "\"@metadata\":{"));
        Assert.Equal("mine", page.GetProperty("Results")[0].GetProperty("inner").GetProperty("@metadata").GetString());
    }

    [Fact]
    public async Task A_bulk_patch_over_a_limit_keeps_its_limit_exceeded_code()
    {
        var tooMany = "[" + string.Join(",", Enumerable.Repeat("""{"op":"test","path":"/a","value":1}""", 1025)) + "]";

        var problem = await JsonAssert.ProblemAsync(await Client.PostAsync("/bulk_docs", Json($$"""[{"Method":"PATCH","Key":"reserved/6","Patch":{{tooMany}}}]""")),
            HttpStatusCode.BadRequest, ErrorCodes.LimitExceeded);

        Assert.Equal("MaxOperations", problem.GetProperty(ErrorCodes.LimitMember).GetString());
    }

    private static int CountOccurrences(string text, string part)
    {
        var count = 0;
        for (var at = text.IndexOf(part, StringComparison.Ordinal); at >= 0; at = text.IndexOf(part, at + 1, StringComparison.Ordinal))
            count++;
        return count;
    }
}
