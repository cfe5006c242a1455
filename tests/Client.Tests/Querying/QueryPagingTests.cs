using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

public sealed class Reading
{
    public string? Id { get; set; }
    public int Number { get; set; }
}

/// <summary>More matches than a server page holds (1,024): ToList, projections and Take read every one, never a silent first page.</summary>
public abstract class QueryPagingTests(Func<Task<StoreFixture>> start) : IAsyncLifetime
{
    private const int Count = 2_500;
    private StoreFixture _fixture = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        using var bulk = _fixture.Store.BulkInsert();
        for (var i = 0; i < Count; i++)
            bulk.Store(new Reading { Number = i });
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    [Fact]
    public async Task ToList_projections_and_large_takes_read_every_match_across_pages()
    {
        using var session = _fixture.Store.OpenSession();
        var all = session.Query<Reading>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList();
        Assert.Equal(Count, all.Count);
        Assert.Equal(Count, all.Select(r => r.Number).Distinct().Count());
        Assert.Equal(Count, (await session.Query<Reading>().ToListAsync()).Count);
        Assert.Equal(2_000, session.Query<Reading>().Take(2_000).ToList().Count);
        Assert.Equal(Count - 100, session.Query<Reading>().Skip(100).ToList().Count);
        var projected = session.Query<Reading>().Select(r => new { r.Number }).ToList();
        Assert.Equal(Count, projected.Count);
        Assert.Equal(Count, projected.Select(p => p.Number).Distinct().Count());
        Assert.Equal(Count, (await session.Query<Reading>().Select(r => new { r.Number }).ToListAsync()).Count);
        IQueryable<Reading> linq = session.Query<Reading>();
        Assert.Equal(Count - 10, linq.Where(r => r.Number >= 10).WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList().Count);
        Assert.Equal(Count, await linq.CountAsync());
        Assert.Equal(2_000, await linq.Take(2_000).CountAsync());
        Assert.Equal(Count - 100, await linq.Skip(100).CountAsync());
        Assert.Equal(2_000, linq.Take(2_000).Count());
    }
}

public sealed class EmbeddedQueryPagingTests() : QueryPagingTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteQueryPagingTests() : QueryPagingTests(async () => await RemoteStoreFixture.StartAsync());
