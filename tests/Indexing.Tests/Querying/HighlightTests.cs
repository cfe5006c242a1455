using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>Highlighted fragments: exactly the matched terms marked, everything else HTML-escaped.</summary>
public sealed class HighlightTests : IDisposable
{
    private static readonly IndexDefinition Posts = IndexDefinition.FromJson("""
        {"Name": "Posts", "Fields": [{"Name": "Title", "Path": "title", "Analysis": "FullText"},
                                     {"Name": "Body", "Path": "body", "Analysis": "FullText"},
                                     {"Name": "Notes", "Path": "notes[]", "Analysis": "FullText"},
                                     {"Name": "Tag", "Path": "tag"}]}
        """);

    private readonly TestIndexes _db = new();

    public HighlightTests() => _db.Indexes.PutIndex(Posts);

    public void Dispose() => _db.Dispose();

    private QueryResult Highlighted(string query, HighlightOptions options, bool scored = false) =>
        _db.Indexes.Query("Posts", new IndexQuery
        {
            Query = query,
            OrderByScore = scored,
            Highlight = options,
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromMinutes(1),
        });

    [Fact]
    public void Matched_terms_are_marked_and_the_rest_is_escaped()
    {
        _db.Put("posts/1", """{"body": "Use <script>alert('x')</script> & \"Tomato\" sauce"}""");

        var result = Highlighted("Body:tomato", new HighlightOptions { Fields = ["Body"] });

        var fragments = Assert.Single(result.Highlights!)["Body"];
        Assert.Equal("Use &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;<b>Tomato</b>&quot; sauce", Assert.Single(fragments));
    }

    [Fact]
    public void Every_matched_term_is_marked_with_the_tags_asked_for()
    {
        _db.Put("posts/1", """{"body": "pasta with tomato sauce and more pasta"}""");

        var result = Highlighted("Body:(pasta sauce) OR Title:with", new HighlightOptions { Fields = ["Body"], PreTag = "<em class=\"hit\">", PostTag = "</em>" });

        Assert.Equal("<em class=\"hit\">pasta</em> with tomato <em class=\"hit\">sauce</em> and more <em class=\"hit\">pasta</em>",
            Assert.Single(result.Highlights![0]["Body"]));
    }

    [Fact]
    public void A_field_without_a_matched_term_is_left_out()
    {
        _db.Put("posts/1", """{"title": "about pasta", "body": "nothing here"}""");

        var result = Highlighted("Title:pasta", new HighlightOptions { Fields = ["Title", "Body"] });

        var highlights = Assert.Single(result.Highlights!);
        Assert.Equal(["about <b>pasta</b>"], highlights["Title"]);
        Assert.False(highlights.ContainsKey("Body"));
    }

    [Fact]
    public void Long_text_gives_at_most_the_fragments_asked_for_each_with_a_match()
    {
        var filler = string.Join(' ', Enumerable.Repeat("lorem ipsum dolor", 30));
        _db.Put("posts/1", $$"""{"body": "tomato {{filler}} tomato {{filler}} tomato {{filler}} tomato"}""");

        var result = Highlighted("Body:tomato", new HighlightOptions { Fields = ["Body"], FragmentCount = 2, FragmentLength = 60 });

        var fragments = result.Highlights![0]["Body"];
        Assert.Equal(2, fragments.Count);
        Assert.All(fragments, fragment =>
        {
            Assert.Contains("<b>tomato</b>", fragment, StringComparison.Ordinal);
            Assert.True(fragment.Length < 120, fragment);
        });
    }

    [Fact]
    public void Each_value_of_a_multi_valued_field_is_highlighted_on_its_own()
    {
        _db.Put("posts/1", """{"notes": ["first note", "a tomato note", "another tomato"]}""");

        var result = Highlighted("Notes:tomato", new HighlightOptions { Fields = ["Notes"] });

        Assert.Equal(["a <b>tomato</b> note", "another <b>tomato</b>"], result.Highlights![0]["Notes"].Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Highlights_follow_the_results_of_a_scored_query()
    {
        _db.Put("posts/1", """{"body": "pasta"}""");
        _db.Put("posts/2", """{"body": "pasta tomato"}""");

        var result = Highlighted("Body:(pasta tomato)", new HighlightOptions { Fields = ["Body"] }, scored: true);

        Assert.Equal(["posts/2", "posts/1"], TestIndexes.Keys(result));
        Assert.Equal("<b>pasta</b> <b>tomato</b>", result.Highlights![0]["Body"][0]);
        Assert.Equal("<b>pasta</b>", result.Highlights[1]["Body"][0]);
    }

    [Fact]
    public void Highlighting_a_field_that_is_not_full_text_throws_ArgumentException()
    {
        _db.Put("posts/1", """{"body": "pasta", "tag": "x"}""");

        var error = Assert.Throws<ArgumentException>(() => Highlighted("Body:pasta", new HighlightOptions { Fields = ["Tag"] }));
        Assert.Contains("Full-text fields: Title, Body, Notes", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_query_without_highlighting_has_none()
    {
        _db.Put("posts/1", """{"body": "pasta"}""");

        Assert.Null(_db.Query("Posts", "Body:pasta").Highlights);
    }
}
