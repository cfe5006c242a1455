using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>More like this on a fixed corpus whose neighbours can be worked out by hand.</summary>
public sealed class MoreLikeThisTests : IDisposable
{
    private static readonly IndexDefinition Articles = IndexDefinition.FromJson("""
        {"Name": "Articles", "Fields": [{"Name": "Body", "Path": "body", "Analysis": "FullText"},
                                        {"Name": "Title", "Path": "title", "Analysis": "FullText"},
                                        {"Name": "Tag", "Path": "tag"}]}
        """);

    private readonly TestIndexes _db = new();

    public MoreLikeThisTests()
    {
        _db.Indexes.PutIndex(Articles);
        _db.Put("articles/1", """{"body": "lucene search engine index scoring"}""");
        _db.Put("articles/2", """{"body": "lucene index segments merge"}""");
        _db.Put("articles/3", """{"body": "search engine ranking scoring"}""");
        _db.Put("articles/4", """{"body": "cooking pasta tomato sauce"}""");
        _db.Put("articles/5", """{"body": "pasta recipe with garlic", "title": "search"}""");
        _db.Query("Articles", "");
    }

    public void Dispose() => _db.Dispose();

    private static IReadOnlyList<string> Keys(QueryResult? result) => TestIndexes.Keys(result!);

    [Fact]
    public void The_documents_sharing_the_most_telling_terms_come_first_without_the_source()
    {
        var result = _db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { Fields = ["Body"] });

        Assert.Equal(["articles/3", "articles/2"], Keys(result));
        Assert.True(result!.Scores![0] > result.Scores[1]);
    }

    [Fact]
    public void The_source_is_left_out_whatever_the_casing_of_its_key()
    {
        var result = _db.Indexes.MoreLikeThis("Articles", "ARTICLES/1", new MoreLikeThisQuery { Fields = ["Body"] });

        Assert.Equal(["articles/3", "articles/2"], Keys(result));
    }

    [Fact]
    public void Every_full_text_field_is_compared_by_default()
    {
        // articles/5's title holds "search", which articles/1 has in its body: a term of another field does not count.
        Assert.Equal(["articles/3", "articles/2"], Keys(_db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery())));
        Assert.Equal(["articles/4"], Keys(_db.Indexes.MoreLikeThis("Articles", "articles/5", new MoreLikeThisQuery())));
    }

    [Fact]
    public void Terms_in_too_few_documents_are_not_used()
    {
        // Every term of articles/1 is in exactly two documents.
        Assert.Empty(Keys(_db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { MinDocFrequency = 3 })));
    }

    [Fact]
    public void Terms_seen_too_rarely_in_the_source_are_not_used()
    {
        Assert.Empty(Keys(_db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { MinTermFrequency = 2 })));
    }

    [Fact]
    public void MaxQueryTerms_keeps_only_the_most_telling_terms()
    {
        // With one term, it is one of the five (all equally rare), matching one neighbour only.
        var result = _db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { MaxQueryTerms = 1 });

        Assert.Single(Keys(result));
    }

    [Fact]
    public void A_missing_document_gives_null()
    {
        Assert.Null(_db.Indexes.MoreLikeThis("Articles", "articles/404", new MoreLikeThisQuery()));
    }

    [Fact]
    public void A_field_that_is_not_full_text_throws_ArgumentException()
    {
        Assert.Throws<ArgumentException>(() => _db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { Fields = ["Tag"] }));
    }

    [Fact]
    public void A_knob_out_of_range_throws_ArgumentOutOfRangeException()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => _db.Indexes.MoreLikeThis("Articles", "articles/1", new MoreLikeThisQuery { MaxQueryTerms = 0 }));
    }
}
