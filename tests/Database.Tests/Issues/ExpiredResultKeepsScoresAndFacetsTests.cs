using Microsoft.Extensions.Time.Testing;
using Newtonsoft.Json.Linq;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Database.Tests.Issues;

/// <summary>
/// A page holding an expired document (left out before the expiry task deletes it) used to be rebuilt member by
/// member, and the copy dropped the scores, highlights and facets: a scored or faceted query answered without them.
/// Now every member is kept and the per-result ones stay beside their results.
/// </summary>
public sealed class ExpiredResultKeepsScoresAndFacetsTests : IDisposable
{
    private static readonly DateTimeOffset s_start = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly FakeTimeProvider _time = new(s_start);
    private readonly DocumentDatabase _db;

    public ExpiredResultKeepsScoresAndFacetsTests()
    {
        _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, TimeProvider = _time });
        _db.PutIndex(IndexDefinition.FromJson("""
            {"Name": "Posts", "Fields": [{"Name": "Body", "Path": "body", "Analysis": "FullText"},
                                         {"Name": "Brand", "Path": "brand", "Analysis": "Typed"}]}
            """));
    }

    public void Dispose()
    {
        _db.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private void Put(string key, string body, string brand, DateTimeOffset? expires = null)
    {
        var metadata = new JObject { [MetadataNames.EntityName] = "Post" };
        if (expires is { } at)
            metadata[MetadataNames.Expires] = at.ToString("O");
        _db.Put(key, new JObject { ["body"] = body, ["brand"] = brand }, metadata);
    }

    [Fact]
    public void A_scored_faceted_highlighted_page_with_an_expired_result_keeps_the_others_scores_highlights_and_the_facets()
    {
        Put("posts/1", "apple apple apple", "acme", expires: s_start.AddMinutes(5));
        Put("posts/2", "apple apple pie", "acme");
        Put("posts/3", "apple crumble", "zed");
        var query = new IndexQuery
        {
            Query = "Body:apple",
            OrderByScore = true,
            Highlight = new HighlightOptions { Fields = ["Body"] },
            Facets = [new FacetRequest { Field = "Brand" }],
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromMinutes(1),
        };
        var before = _db.Query("Posts", query);
        Assert.Equal(["posts/1", "posts/2", "posts/3"], before.Results.Select(d => d.Key));

        _time.Advance(TimeSpan.FromMinutes(6));
        var after = _db.Query("Posts", query);

        Assert.Equal(["posts/2", "posts/3"], after.Results.Select(d => d.Key));
        Assert.Equal(1, after.SkippedResults);
        Assert.Equal(before.Scores!.Skip(1), after.Scores!);
        Assert.Equal(2, after.Highlights!.Count);
        Assert.Contains("pie", after.Highlights[0]["Body"][0]);
        Assert.Contains("<b>apple</b> crumble", after.Highlights[1]["Body"][0]);
        Assert.Equal(before.Facets.Single().Values.Select(v => (v.Value, v.Count)), after.Facets.Single().Values.Select(v => (v.Value, v.Count)));
    }
}
