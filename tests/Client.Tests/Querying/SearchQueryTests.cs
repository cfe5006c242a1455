using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public sealed class Post
{
    public string? Id { get; set; }
    public string Title { get; set; } = "";
    public string Body { get; set; } = "";
    public int Rank { get; set; }
}

/// <summary>A static index whose title and body are searched as words: what more like this compares.</summary>
public sealed class Posts_Search : RavenIndex<Post>
{
    public Posts_Search()
    {
        Map = post => new { post.Title, post.Body, post.Rank };
        Search = [post => post.Title, post => post.Body];
    }
}

/// <summary>OrderByScore, Search with options and boosts, Highlight and MoreLikeThis through the typed client, embedded and remote.</summary>
public abstract class SearchQueryTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    private static readonly TimeSpan Wait = TimeSpan.FromMinutes(1);
    private StoreFixture _fixture = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        using var session = _fixture.Store.OpenSession();
        session.Store(new Post { Title = "red apple", Body = "fruit basket", Rank = 1 }, "posts/1");
        session.Store(new Post { Title = "fruit basket", Body = "red apple", Rank = 2 }, "posts/2");
        session.Store(new Post { Title = "common", Body = "common word", Rank = 3 }, "posts/3");
        session.Store(new Post { Title = "common", Body = "common word", Rank = 4 }, "posts/4");
        session.Store(new Post { Title = "rare", Body = "rare word", Rank = 5 }, "posts/5");
        session.Store(new Post { Title = "dinner", Body = "pasta <with> tomato & sauce", Rank = 6 }, "posts/6");
        session.Store(new Post { Title = "more", Body = "tomato sauce recipes", Rank = 7 }, "posts/7");
        session.Store(new Post { Title = "plain", Body = "pasta", Rank = 8 }, "posts/8");
        session.SaveChanges();
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    [Fact]
    public void OrderByScore_puts_the_rarer_term_first_with_the_scores_in_the_statistics()
    {
        using var session = _fixture.Store.OpenSession();

        var found = session.Query<Post>().WaitForNonStaleResults(Wait).Statistics(out var stats)
            .Search(p => p.Body, "common rare").OrderByScore().ToList();

        Assert.Equal(["posts/5", "posts/3", "posts/4"], found.Select(p => p.Id));
        Assert.Equal(3, stats.Scores.Count);
        Assert.True(stats.Scores["posts/5"] > stats.Scores["posts/3"]);
        Assert.Equal(stats.Scores["posts/3"], stats.Scores["posts/4"]);
    }

    [Fact]
    public void A_boosted_search_wins_and_OrElse_joins_searches_of_two_members()
    {
        using var session = _fixture.Store.OpenSession();
        IQueryable<Post> Ranked(float titleBoost, float bodyBoost) => session.Query<Post>().WaitForNonStaleResults(Wait)
            .Search(p => p.Title, "apple", SearchOptions.AnyTerm, titleBoost)
            .Search(p => p.Body, "apple", SearchOptions.OrElse, bodyBoost)
            .OrderByScore();

        Assert.Equal(["posts/1", "posts/2"], Ranked(10, 1).ToList().Select(p => p.Id));
        Assert.Equal(["posts/2", "posts/1"], Ranked(1, 10).ToList().Select(p => p.Id));
    }

    [Fact]
    public void AllTerms_needs_every_word()
    {
        using var session = _fixture.Store.OpenSession();
        var query = session.Query<Post>().WaitForNonStaleResults(Wait);

        Assert.Equal(["posts/6"], query.Search(p => p.Body, "pasta tomato", SearchOptions.AllTerms).ToList().Select(p => p.Id));
        Assert.Equal(3, query.Search(p => p.Body, "pasta tomato").Count());
    }

    [Fact]
    public void OrderByScore_with_an_OrderBy_breaks_ties_by_it_and_Take_limits_it()
    {
        using var session = _fixture.Store.OpenSession();

        var found = session.Query<Post>().WaitForNonStaleResults(Wait).Search(p => p.Body, "common").OrderByScore()
            .OrderByDescending(p => p.Rank).ToList();

        Assert.Equal(["posts/4", "posts/3"], found.Select(p => p.Id));
        Assert.Single(session.Query<Post>().WaitForNonStaleResults(Wait).Search(p => p.Body, "common rare").OrderByScore().Take(1).ToList());
    }

    [Fact]
    public void Highlight_gives_each_results_fragments_escaped_with_the_terms_marked()
    {
        using var session = _fixture.Store.OpenSession();

        var found = session.Query<Post>().WaitForNonStaleResults(Wait).Search(p => p.Body, "tomato")
            .Highlight(p => p.Body, 3, 100, out var highlights).OrderByScore().ToList();

        Assert.Equal(2, found.Count);
        Assert.Equal("Body", highlights.FieldName);
        Assert.Equal(["pasta &lt;with&gt; <b>tomato</b> &amp; sauce"], highlights.GetFragments("posts/6"));
        Assert.Equal(["<b>tomato</b> sauce recipes"], highlights.GetFragments("posts/7"));
        Assert.Empty(highlights.GetFragments("posts/8"));
    }

    [Fact]
    public void MoreLikeThis_returns_the_neighbours_without_the_document()
    {
        _fixture.Store.ExecuteIndex(new Posts_Search());
        using var session = _fixture.Store.OpenSession();
        session.Query<Post, Posts_Search>().WaitForNonStaleResults(Wait).Take(1).ToList();

        var similar = session.MoreLikeThis<Post, Posts_Search>("posts/6", new MoreLikeThisQuery { Fields = ["Body"] });

        Assert.Equal(["posts/7", "posts/8"], similar.Select(p => p.Id));
        Assert.Same(similar[0], session.Load<Post>("posts/7"));
        Assert.Empty(session.MoreLikeThis<Post, Posts_Search>("posts/404", null));
    }
}

public sealed class EmbeddedSearchQueryTests() : SearchQueryTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteSearchQueryTests() : SearchQueryTests(async () => await RemoteStoreFixture.StartAsync());
