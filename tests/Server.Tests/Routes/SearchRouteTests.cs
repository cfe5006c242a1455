using System.Net;
using System.Text.Json;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Routes;

/// <summary>Relevance (<c>sort=score</c>), highlighting (<c>highlight=</c>) and more like this over HTTP.</summary>
public sealed class SearchRouteTests : IAsyncLifetime
{
    private const string Definition = """
        {"Fields": [{"Name": "Title", "Path": "Title", "Analysis": "FullText"},
                    {"Name": "Body", "Path": "Body", "Analysis": "FullText"},
                    {"Name": "Rank", "Path": "Rank", "Sort": "Long"}]}
        """;

    private TestServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await TestServer.StartAsync();
        await JsonAssert.ReadAsync(await _server.Client.PutAsync("/indexes/Search/Posts", TestServer.Json(Definition)), HttpStatusCode.Created);
        await _server.PutAsync("posts/1", """{"Title":"pasta","Body":"pasta","Rank":1}""");
        await _server.PutAsync("posts/2", """{"Title":"dinner","Body":"pasta <with> tomato & sauce","Rank":2}""");
        await _server.PutAsync("posts/3", """{"Title":"salad","Body":"green salad","Rank":3}""");
        await _server.PutAsync("posts/4", """{"Title":"more","Body":"tomato sauce recipes","Rank":4}""");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    private async Task<JsonElement> GetAsync(string url) => await JsonAssert.ReadAsync(await _server.Client.GetAsync(url), HttpStatusCode.OK);

    private static string[] Ids(JsonElement body) =>
        [.. body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!)];

    [Fact]
    public async Task Sort_score_orders_by_relevance_with_the_score_in_each_results_metadata()
    {
        var body = await GetAsync("/indexes/Search/Posts?query=Body:(pasta tomato sauce)&sort=score&waitForNonStaleResults=true");

        Assert.Equal(["posts/2", "posts/4", "posts/1"], Ids(body));
        var scores = body.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@index-score").GetDouble()).ToArray();
        Assert.Equal(scores.OrderByDescending(s => s), scores);
        Assert.True(scores[^1] > 0);
    }

    [Fact]
    public async Task A_boost_changes_the_order_of_a_scored_query_only()
    {
        const string query = "/indexes/Search/Posts?query=Title:pasta OR Body:tomato^20&waitForNonStaleResults=true";

        Assert.Equal(["posts/2", "posts/4", "posts/1"], Ids(await GetAsync(query + "&sort=score")));
        var unscored = await GetAsync(query);
        Assert.Equal(["posts/1", "posts/2", "posts/4"], Ids(unscored));
        Assert.False(unscored.GetProperty("Results")[0].GetProperty("@metadata").TryGetProperty("@index-score", out _));
    }

    [Fact]
    public async Task Sort_fields_after_score_break_its_ties()
    {
        // A range scores every match alike.
        var body = await GetAsync("/indexes/Search/Posts?query=Rank:[1 TO 4]&sort=score&sort=-Rank&waitForNonStaleResults=true");

        Assert.Equal(["posts/4", "posts/3", "posts/2", "posts/1"], Ids(body));
    }

    [Fact]
    public async Task Score_after_another_sort_field_is_a_400()
    {
        var response = await _server.Client.GetAsync("/indexes/Search/Posts?query=Body:sauce&sort=-Rank&sort=score");

        await JsonAssert.ProblemAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
    }

    [Fact]
    public async Task Highlights_are_in_the_metadata_escaped_with_only_the_tags_as_markup()
    {
        var body = await GetAsync("/indexes/Search/Posts?query=Body:tomato&highlight=Body&highlightFragments=2&highlightFragmentLength=100" +
            "&highlightPreTag=" + Uri.EscapeDataString("<em>") + "&highlightPostTag=" + Uri.EscapeDataString("</em>") + "&waitForNonStaleResults=true");

        var first = body.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@highlights").GetProperty("Body");
        Assert.Equal("pasta &lt;with&gt; <em>tomato</em> &amp; sauce", Assert.Single(first.EnumerateArray()).GetString());
        // The stored document is unchanged beside it.
        Assert.Equal("pasta <with> tomato & sauce", body.GetProperty("Results")[0].GetProperty("Body").GetString());
    }

    [Fact]
    public async Task Highlighting_a_field_that_is_not_full_text_is_a_400()
    {
        var response = await _server.Client.GetAsync("/indexes/Search/Posts?query=Body:tomato&highlight=Rank&waitForNonStaleResults=true");

        await JsonAssert.ProblemAsync(response, HttpStatusCode.BadRequest, ErrorCodes.BadRequest);
    }

    [Fact]
    public async Task A_highlighted_and_a_plain_answer_are_cached_apart()
    {
        const string query = "/indexes/Search/Posts?query=Body:tomato&waitForNonStaleResults=true";
        var plain = await GetAsync(query);
        var highlighted = await GetAsync(query + "&highlight=Body");
        var again = await GetAsync(query);

        Assert.False(plain.GetProperty("Results")[0].GetProperty("@metadata").TryGetProperty("@highlights", out _));
        Assert.True(highlighted.GetProperty("Results")[0].GetProperty("@metadata").TryGetProperty("@highlights", out _));
        Assert.False(again.GetProperty("Results")[0].GetProperty("@metadata").TryGetProperty("@highlights", out _));
    }

    [Fact]
    public async Task More_like_this_returns_the_neighbours_without_the_document()
    {
        await GetAsync("/indexes/Search/Posts?waitForNonStaleResults=true");

        var body = await GetAsync("/indexes/Search/Posts/morelikethis/posts/2?fields=Body");

        Assert.Equal(["posts/4", "posts/1"], Ids(body));
        Assert.True(body.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@index-score").GetDouble() > 0);
        Assert.Empty(Ids(await GetAsync("/indexes/Search/Posts/morelikethis/posts/2?fields=Body&minDocFreq=3")));
    }

    [Fact]
    public async Task More_like_this_of_a_missing_document_is_a_404()
    {
        var response = await _server.Client.GetAsync("/indexes/Search/Posts/morelikethis/posts/404");

        await JsonAssert.ProblemAsync(response, HttpStatusCode.NotFound, ErrorCodes.DocumentNotFound);
    }
}
