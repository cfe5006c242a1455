using RavenLite.Client.Tests.Infrastructure;
using RavenLite.Indexing;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    private const string ByTotal = "Carts/ByTotal";

    [Fact]
    public void Query_over_the_collection_returns_its_entities_with_statistics()
    {
        Seed("carts/1", "carts/2", "carts/3");
        using (var session = Store.OpenSession())
        {
            session.Store(new Animal { Name = "not a cart" }, "animals/1");
            session.SaveChanges();
        }
        using var query = Store.OpenSession();
        var carts = query.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).Statistics(out var stats).ToList();
        Assert.Equal(["carts/1", "carts/2", "carts/3"], carts.Select(c => c.Id!).Order(StringComparer.Ordinal));
        Assert.Equal(3, stats.TotalResults);
        Assert.Equal(0, stats.SkippedResults);
        Assert.False(stats.IsStale);
        Assert.Equal("Raven/DocumentsByEntityName", stats.IndexName);
        Assert.Null(stats.Continuation);
    }

    [Fact]
    public void Entities_a_query_tracked_are_found_by_reference_for_ids_stores_and_deletes()
    {
        Seed("carts/1", "carts/2");
        using (var session = Store.OpenSession())
        {
            var carts = session.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(30)).ToList();
            var first = carts.Single(c => c.Id == "carts/1");
            var second = carts.Single(c => c.Id == "carts/2");
            Assert.Equal("carts/1", session.GetIdFor(first));
            Assert.NotNull(session.GetEtagFor(first));
            session.Store(first); // already tracked: nothing to do
            Assert.Throws<InvalidOperationException>(() => session.Store(new Cart(), "carts/2"));
            Assert.Same(second, session.Load<Cart>("carts/2"));
            session.Delete(second);
            Assert.Null(session.GetIdFor(second));
            session.SaveChanges();
        }
        using var check = Store.OpenSession();
        Assert.NotNull(check.Load<Cart>("carts/1"));
        Assert.Null(check.Load<Cart>("carts/2"));
    }

    [Fact]
    public async Task Query_of_a_named_index_filters_sorts_and_pages()
    {
        await SeedTotalsAsync(10);
        using var session = Store.OpenSession();
        var page = session.Query<Cart>(ByTotal).OrderByDescending("Total").Skip(2).Take(3)
            .WaitForNonStaleResults().Statistics(out var stats).ToList();
        Assert.Equal([8, 7, 6], page.Select(c => c.Total));
        Assert.Equal(10, stats.TotalResults);
        var range = session.Query<Cart>(ByTotal).Where("Total:[3 TO 5]").OrderBy("Total").ToList();
        Assert.Equal([3, 4, 5], range.Select(c => c.Total));
    }

    [Fact]
    public async Task Continuation_walks_every_page_once()
    {
        await SeedTotalsAsync(10);
        using var session = Store.OpenSession();
        var seen = new List<int>();
        string? after = null;
        do
        {
            var query = session.Query<Cart>(ByTotal).OrderBy("Total").Take(4).WaitForNonStaleResults().Statistics(out var stats);
            if (after is not null)
                query = query.StartAfter(after);
            seen.AddRange(query.ToList().Select(c => c.Total));
            after = stats.Continuation;
        }
        while (after is not null);
        Assert.Equal(Enumerable.Range(1, 10), seen);
    }

    [Fact]
    public void Query_results_enter_the_identity_map_and_their_changes_are_saved()
    {
        Seed("carts/1", "carts/2");
        using var session = Store.OpenSession();
        var loaded = session.Load<Cart>("carts/1");
        var queried = session.Query<Cart>().WaitForNonStaleResults().ToList();
        Assert.Contains(loaded, queried);
        var other = queried.Single(c => c.Id == "carts/2");
        Assert.Same(other, session.Load<Cart>("carts/2"));
        other.Total = 40;
        session.SaveChanges();
        Assert.Equal(40, Reload<Cart>("carts/2")!.Total);
    }

    [Fact]
    public void Stream_walks_every_match_across_pages_in_one_request()
    {
        using (var session = Store.OpenSession())
        {
            for (var i = 0; i < 1100; i++)
                session.Store(NewCart("c" + i, i));
            session.SaveChanges();
        }
        using var reader = Store.OpenSession();
        var all = reader.Query<Cart>().WaitForNonStaleResults(TimeSpan.FromSeconds(60)).Statistics(out var stats).Stream().ToList();
        Assert.Equal(1100, all.Select(c => c.Id).Distinct().Count());
        Assert.Equal(1100, stats.TotalResults);
        Assert.Equal(1, reader.NumberOfRequests);
        Assert.Equal(5, reader.Query<Cart>().Skip(1000).Take(5).Stream().Count());
    }

    [Fact]
    public void Query_of_an_unknown_index_throws_IndexNotFoundException()
    {
        using var session = Store.OpenSession();
        Assert.Throws<IndexNotFoundException>(() => session.Query<Cart>("No/Such/Index").ToList());
    }

    [Fact]
    public void Query_with_bad_syntax_throws_QueryException()
    {
        using var session = Store.OpenSession();
        var error = Assert.Throws<QueryException>(() => session.Query<Cart>().Where("Customer:\"unclosed").ToList());
        Assert.Contains("unclosed", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Linq_conditions_are_translated_and_run_on_the_index()
    {
        await SeedTotalsAsync(10);
        using var session = Store.OpenSession();
        var low = 3;
        var carts = session.Query<Cart>(ByTotal).Where(c => c.Total > low && c.Total <= 5 || c.Customer == "t9")
            .OrderBy("Total").WaitForNonStaleResults().ToList();
        Assert.Equal([4, 5, 9], carts.Select(c => c.Total));
        var prefixed = session.Query<Cart>(ByTotal).Where(c => c.Customer!.StartsWith("t1")).OrderBy("Total").ToList();
        Assert.Equal([1, 10], prefixed.Select(c => c.Total));
    }

    [Fact]
    public async Task Linq_any_over_an_array_matches_an_array_field()
    {
        await Fixture.PutIndexAsync("Carts/ByProduct", """
            {"Name":"Carts/ByProduct","EntityName":"Cart","Fields":[{"Name":"ProductId","Path":"Items[].ProductId"}]}
            """);
        using (var session = Store.OpenSession())
        {
            session.Store(NewCart("has 42"), "carts/42");
            var other = NewCart("has 7");
            other.Items[0].ProductId = 7;
            session.Store(other, "carts/7");
            session.SaveChanges();
        }
        using var reader = Store.OpenSession();
        var carts = reader.Query<Cart>("Carts/ByProduct").Where(c => c.Items.Any(i => i.ProductId == 7)).WaitForNonStaleResults().ToList();
        Assert.Equal("carts/7", Assert.Single(carts).Id);
    }

    /// <summary>Carts <c>totals/1</c>..<c>totals/n</c> with Total = 1..n, and the index <see cref="ByTotal"/> over them.</summary>
    private async Task SeedTotalsAsync(int count)
    {
        await Fixture.PutIndexAsync(ByTotal, $$"""
            {"Name":"{{ByTotal}}","EntityName":"Cart","Fields":[{"Name":"Total","Path":"Total","Sort":"Long"},{"Name":"Customer","Path":"Customer"}]}
            """);
        using var session = Store.OpenSession();
        for (var i = 1; i <= count; i++)
            session.Store(NewCart("t" + i, i), $"totals/{i}");
        session.SaveChanges();
    }
}
