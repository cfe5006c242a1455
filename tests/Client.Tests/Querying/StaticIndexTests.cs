using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public sealed class Article
{
    public string? Id { get; set; }
    public string Author { get; set; } = "";
    public string Body { get; set; } = "";
    public int Likes { get; set; }
    public List<Comment> Comments { get; set; } = [];
}

public sealed class Comment
{
    public string By { get; set; } = "";
    public int Stars { get; set; }
}

/// <summary>A static index written in C#: the members it holds, and one searched as full text.</summary>
public sealed class Articles_ByAuthor : RavenIndex<Article>
{
    public Articles_ByAuthor()
    {
        Map = article => new { article.Author, article.Likes, Stars = article.Comments.Select(c => c.Stars) };
        Search = [article => article.Body];
    }
}

/// <summary>Static indexes in C# and word searches, against LINQ to Objects over the same articles.</summary>
public abstract class StaticIndexTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    private StoreFixture _fixture = null!;
    private readonly List<Article> _articles =
    [
        new() { Author = "ayende", Body = "The quick brown fox jumps", Likes = 5, Comments = [new() { By = "a", Stars = 5 }] },
        new() { Author = "oren", Body = "A lazy dog sleeps", Likes = 1, Comments = [new() { By = "b", Stars = 1 }, new() { By = "c", Stars = 3 }] },
        new() { Author = "ayende", Body = "Foxes are QUICK", Likes = 9 },
        new() { Author = "marten", Body = "nothing to see", Likes = 0 },
    ];

    public async Task InitializeAsync()
    {
        _fixture = await start();
        using var session = _fixture.Store.OpenSession();
        foreach (var article in _articles)
            session.Store(article);
        session.SaveChanges();
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    [Fact]
    public void A_static_index_compiles_to_a_typed_definition_and_answers_typed_queries()
    {
        Assert.True(_fixture.Store.ExecuteIndex(new Articles_ByAuthor()));
        Assert.False(_fixture.Store.ExecuteIndex(new Articles_ByAuthor())); // the same definition: nothing to rebuild
        using var session = _fixture.Store.OpenSession();
        IQueryable<Article> query = session.Query<Article, Articles_ByAuthor>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Statistics(out var stats);
        Assert.Equal(_articles.Where(a => a.Author == "ayende").Select(a => a.Id), query.Where(a => a.Author == "ayende").Select(a => a.Id).ToList());
        Assert.Equal("Articles/ByAuthor", stats.IndexName);
        Assert.Equal(_articles.Count(a => a.Comments.Any(c => c.Stars >= 3)), query.Count(a => a.Comments.Any(c => c.Stars >= 3)));
        Assert.Equal(_articles.Sum(a => a.Likes), query.Sum(a => a.Likes));
        Assert.Equal(_articles.OrderByDescending(a => a.Likes).Select(a => a.Id), query.OrderByDescending(a => a.Likes).Select(a => a.Id).ToList());
        Assert.Equal(2, query.Search(a => a.Body, "quick").Count());
        Assert.Equal(1, query.Search(a => a.Body, "quick jumps", all: true).Count());
    }

    [Fact]
    public void Deploying_every_index_of_an_assembly_creates_them()
    {
        Assert.True(_fixture.Store.ExecuteIndexes(typeof(Articles_ByAuthor).Assembly) >= 1);
        using var session = _fixture.Store.OpenSession();
        Assert.Equal(1, session.Query<Article, Articles_ByAuthor>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Count(a => a.Author == "marten"));
    }

    [Fact]
    public void A_word_search_on_a_collection_query_makes_its_auto_index_search_that_member()
    {
        using var session = _fixture.Store.OpenSession();
        var found = session.Query<Article>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Search(a => a.Body, "fox foxes").ToList();
        Assert.Equal(_articles.Where(a => a.Body.Contains("fox", StringComparison.OrdinalIgnoreCase)).Select(a => a.Id).Order(StringComparer.Ordinal),
            found.Select(a => a.Id).Order(StringComparer.Ordinal));
        Assert.Throws<ArgumentException>(() => session.Query<Article>().Search(a => a.Body, "   "));
    }
}

public sealed class EmbeddedStaticIndexTests() : StaticIndexTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteStaticIndexTests() : StaticIndexTests(async () => await RemoteStoreFixture.StartAsync());
