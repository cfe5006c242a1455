using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying;

/// <summary>Queries ordered by relevance (BM25) on small corpora whose order can be worked out by hand.</summary>
public sealed class ScoredQueryTests : IDisposable
{
    private static readonly IndexDefinition Posts = IndexDefinition.FromJson("""
        {"Name": "Posts", "Fields": [{"Name": "Title", "Path": "title", "Analysis": "FullText"},
                                     {"Name": "Body", "Path": "body", "Analysis": "FullText"},
                                     {"Name": "Rank", "Path": "rank", "Sort": "Long"}]}
        """);

    private readonly TestIndexes _db = new();

    public ScoredQueryTests() => _db.Indexes.PutIndex(Posts);

    public void Dispose() => _db.Dispose();

    private QueryResult Scored(string query, IReadOnlyList<string>? sortBy = null, int start = 0, int? pageSize = null) =>
        _db.Indexes.Query("Posts", new IndexQuery
        {
            Query = query,
            OrderByScore = true,
            SortBy = sortBy,
            Start = start,
            PageSize = pageSize,
            WaitForNonStaleResults = true,
            Timeout = TimeSpan.FromMinutes(1),
        });

    private void PutMirrored()
    {
        // Two documents alike but for which field holds "apple": unboosted they score the same.
        _db.Put("posts/a", """{"title": "red apple", "body": "fruit basket"}""");
        _db.Put("posts/b", """{"title": "fruit basket", "body": "red apple"}""");
    }

    [Fact]
    public void A_boosted_field_wins()
    {
        PutMirrored();

        Assert.Equal(["posts/a", "posts/b"], TestIndexes.Keys(Scored("Title:apple^10 OR Body:apple")));
        Assert.Equal(["posts/b", "posts/a"], TestIndexes.Keys(Scored("Title:apple OR Body:apple^10")));
    }

    [Fact]
    public void Equal_scores_keep_index_order()
    {
        _db.Put("posts/b", """{"title": "fruit basket", "body": "red apple"}""");
        _db.Put("posts/a", """{"title": "red apple", "body": "fruit basket"}""");

        var result = Scored("Title:apple OR Body:apple");

        Assert.Equal(["posts/b", "posts/a"], TestIndexes.Keys(result));
        Assert.Equal(result.Scores![0], result.Scores[1]);
    }

    [Fact]
    public void A_rarer_term_scores_higher()
    {
        for (var i = 0; i < 4; i++)
            _db.Put($"posts/common{i}", """{"body": "common word"}""");
        _db.Put("posts/rare", """{"body": "rare word"}""");

        var result = Scored("Body:(common rare)");

        Assert.Equal(5, result.TotalResults);
        Assert.Equal("posts/rare", result.Results[0].Key);
        Assert.Equal(["posts/common0", "posts/common1", "posts/common2", "posts/common3"], TestIndexes.Keys(result).Skip(1));
        Assert.True(result.Scores![0] > result.Scores[1]);
    }

    [Fact]
    public void A_document_with_more_of_the_terms_comes_first_and_scores_descend()
    {
        _db.Put("posts/1", """{"body": "pasta"}""");
        _db.Put("posts/2", """{"body": "pasta tomato sauce"}""");
        _db.Put("posts/3", """{"body": "pasta tomato"}""");
        _db.Put("posts/4", """{"body": "salad"}""");

        var result = Scored("Body:(pasta tomato sauce)");

        Assert.Equal(["posts/2", "posts/3", "posts/1"], TestIndexes.Keys(result));
        Assert.Equal(result.Scores!.OrderByDescending(s => s), result.Scores);
    }

    [Fact]
    public void Sort_fields_break_ties_of_score()
    {
        _db.Put("posts/1", """{"body": "apple", "rank": 1}""");
        _db.Put("posts/2", """{"body": "apple", "rank": 3}""");
        _db.Put("posts/3", """{"body": "apple", "rank": 2}""");

        Assert.Equal(["posts/2", "posts/3", "posts/1"], TestIndexes.Keys(Scored("Body:apple", sortBy: ["-Rank"])));
    }

    [Fact]
    public void Pages_of_a_scored_query_follow_each_other()
    {
        for (var i = 0; i < 10; i++)
            _db.Put($"posts/{i}", $$"""{"body": "{{string.Join(' ', Enumerable.Repeat("apple", i + 1))}} filler"}""");

        var all = TestIndexes.Keys(Scored("Body:apple", pageSize: 10));
        var pages = TestIndexes.Keys(Scored("Body:apple", pageSize: 4)).Concat(TestIndexes.Keys(Scored("Body:apple", start: 4, pageSize: 4)))
            .Concat(TestIndexes.Keys(Scored("Body:apple", start: 8, pageSize: 4)));

        Assert.Equal(10, all.Count);
        Assert.Equal(all, pages);
    }

    [Fact]
    public void An_unscored_query_has_no_scores_and_keeps_index_order()
    {
        _db.Put("posts/1", """{"body": "pasta"}""");
        _db.Put("posts/2", """{"body": "pasta tomato sauce"}""");

        var result = _db.Query("Posts", "Body:(pasta tomato sauce)");

        Assert.Null(result.Scores);
        Assert.Equal(["posts/1", "posts/2"], TestIndexes.Keys(result));
    }

    [Fact]
    public void A_scored_query_with_a_continuation_throws_ArgumentException()
    {
        _db.Put("posts/1", """{"body": "pasta"}""");

        Assert.Throws<ArgumentException>(() => _db.Indexes.Query("Posts", new IndexQuery { Query = "Body:pasta", OrderByScore = true, Continuation = "x" }));
    }
}
