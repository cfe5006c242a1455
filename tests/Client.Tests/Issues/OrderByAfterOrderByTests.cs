using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// LINQ to Objects sorts stably: <c>OrderBy(a).OrderBy(b)</c> is ordered by b with ties in a's order, and a ThenBy
/// after the second OrderBy comes before a. The query dropped the first ordering (ties came in storage order).
/// </summary>
public sealed class OrderByAfterOrderByTests : IAsyncLifetime
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public int A { get; set; }
        public int B { get; set; }
        public int C { get; set; }
    }

    private StoreFixture _fixture = null!;
    private List<Row> _rows = null!;

    public async Task InitializeAsync()
    {
        _fixture = await Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
        // Storage order is neither A's nor C's, and B ties often.
        _rows = [.. Enumerable.Range(0, 24).Select(i => new Row { A = (i * 7) % 5, B = i % 2, C = (i * 5) % 3 })];
        using var session = _fixture.Store.OpenSession();
        foreach (var row in _rows)
            session.Store(row);
        session.SaveChanges();
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    private List<string> Ids(Func<IQueryable<Row>, IQueryable<Row>> shape)
    {
        using var session = _fixture.Store.OpenSession();
        return [.. shape(session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1))).ToList().Select(r => r.Id!)];
    }

    private List<string> Expected(Func<IQueryable<Row>, IQueryable<Row>> shape) => [.. shape(_rows.AsQueryable()).Select(r => r.Id!)];

    [Fact]
    public void OrderBy_after_OrderBy_keeps_the_first_as_the_tie_break()
    {
        Func<IQueryable<Row>, IQueryable<Row>> shape = q => q.OrderBy(x => x.A).OrderBy(x => x.B);
        Assert.Equal(Expected(shape), Ids(shape));
    }

    [Fact]
    public void ThenBy_after_a_second_OrderBy_comes_before_the_first_ordering()
    {
        Func<IQueryable<Row>, IQueryable<Row>> shape = q => q.OrderByDescending(x => x.A).OrderBy(x => x.B).ThenByDescending(x => x.C);
        Assert.Equal(Expected(shape), Ids(shape));
    }

    [Fact]
    public void OrderBy_of_the_same_member_again_is_that_ordering()
    {
        Func<IQueryable<Row>, IQueryable<Row>> shape = q => q.OrderBy(x => x.A).ThenBy(x => x.C).OrderByDescending(x => x.A);
        Assert.Equal(Expected(shape), Ids(shape));
    }
}
