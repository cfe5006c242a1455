using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// <c>session.Query&lt;T&gt;()</c> is a <see cref="RavenQuery{T}"/>, whose own <c>Where</c>, <c>Take</c>,
/// <c>OrderBy</c>, <c>Statistics</c>... C# picks over LINQ's for a variable of that type; they changed the query
/// and returned it, so <c>var q = session.Query&lt;Row&gt;(); q.Where(a).ToList(); q.Where(b).ToList();</c> ran the
/// second with both conditions, and <c>q.Take(2)</c> cut every later use of <c>q</c>. Each operator now returns a new
/// query, as LINQ's do. Compared with LINQ to Objects refining one base query many ways, both stores.
/// </summary>
public sealed class QueryReuseTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public int A { get; set; }
        public int B { get; set; }
        public int N { get; set; }
    }

    private static async Task<(StoreFixture Fixture, List<Row> Rows)> SeededAsync(bool remote, int count)
    {
        StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var rows = Enumerable.Range(0, count).Select(i => new Row { A = i % 3, B = i % 5, N = i }).ToList();
        using var session = fixture.Store.OpenSession();
        foreach (var row in rows)
            session.Store(row);
        session.SaveChanges();
        return (fixture, rows);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_query_refined_several_ways_gives_independent_answers(bool remote)
    {
        var (fixture, rows) = await SeededAsync(remote, 30);
        await using var _ = fixture;
        using var session = fixture.Store.OpenSession();
        var all = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
        var oracle = rows.AsQueryable();
        foreach (var a in new[] { 0, 1, 2 })
        {
            Assert.Equal(oracle.Count(x => x.A == a), all.Where(x => x.A == a).ToList().Count);
            Assert.Equal(oracle.Count(x => x.B == a), all.Where(x => x.B == a).ToList().Count);
            Assert.Equal(oracle.Count(x => x.A == a), all.Where($"A@dec:{a}").ToList().Count);
        }
        Assert.Equal(2, all.Take(2).ToList().Count);
        Assert.Equal(28, all.Skip(2).ToList().Count);
        Assert.Equal(30, all.ToList().Count);
        var ordered = all.OrderBy("A@dec");
        Assert.Equal(oracle.Max(x => x.B), ordered.OrderByDescending("B@dec").Take(1).ToList()[0].B);
        Assert.Equal(oracle.Min(x => x.A), ordered.Take(1).ToList()[0].A);
        var counted = all.Statistics(out var stats);
        Assert.Equal(30, counted.ToList().Count);
        Assert.Equal(30, stats.TotalResults);
        var facets = all.AggregateBy(x => x.A);
        Assert.Single(facets.AndAggregateBy(x => x.B).Execute()[1].Values, v => v.Value == "4");
        Assert.Single(facets.Execute());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Skip_and_Take_in_any_order_and_number_page_as_LINQ_does(bool remote)
    {
        var (fixture, rows) = await SeededAsync(remote, 40);
        await using var _ = fixture;
        var random = new Random(remote ? 11 : 12);
        for (var chain = 0; chain < 60; chain++)
        {
            var steps = Enumerable.Range(0, random.Next(1, 5)).Select(_ => (Skip: random.Next(2) == 0, Count: random.Next(0, 25))).ToList();
            using var session = fixture.Store.OpenSession();
            // As C# binds it for a RavenQuery<T> variable (its own Skip and Take), and through IQueryable<T> (LINQ's).
            var own = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).OrderBy("N@dec");
            IQueryable<Row> linq = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).OrderBy(x => x.N);
            var oracle = rows.OrderBy(x => x.N).AsQueryable();
            foreach (var (skip, count) in steps)
            {
                own = skip ? own.Skip(count) : own.Take(count);
                linq = skip ? linq.Skip(count) : linq.Take(count);
                oracle = skip ? oracle.Skip(count) : oracle.Take(count);
            }
            var expected = oracle.Select(x => x.N).ToList();
            var shown = string.Join(".", steps.Select(s => (s.Skip ? "Skip(" : "Take(") + s.Count + ")"));
            Assert.True(expected.SequenceEqual(own.ToList().Select(x => x.N)), $"RavenQuery {shown}");
            Assert.True(expected.SequenceEqual(linq.ToList().Select(x => x.N)), $"IQueryable {shown}");
        }
        using (var session = fixture.Store.OpenSession())
        {
            var paged = session.Query<Row>().Take(5);
            Assert.Throws<NotSupportedException>(() => paged.Where(x => x.A == 1));
            Assert.Throws<NotSupportedException>(() => paged.Where("A@dec:1"));
            Assert.Throws<NotSupportedException>(() => paged.OrderBy("N@dec"));
        }
    }
}
