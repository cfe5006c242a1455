using System.Linq.Expressions;
using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class RavenQuery<T>
{
    private readonly List<string> _includes = [];

    /// <summary>
    /// Brings, in the same round trip as the page, the documents the results refer to through <paramref name="include"/>
    /// (a member holding an id, or a collection of ids: <c>x =&gt; x.CustomerId</c>, <c>x =&gt; x.ProductIds</c>): a
    /// following <c>Load</c> of one of them makes no request. Call again for more. Applies to <see cref="ToList"/>
    /// (and <see cref="Select{TResult}"/>); <see cref="Stream"/> tracks nothing and refuses includes.
    /// </summary>
    /// <exception cref="ArgumentException">An include that is not a chain of members.</exception>
    public RavenQuery<T> Include(Expression<Func<T, object?>> include)
    {
        _includes.Add(_session.IncludePathOf(include));
        return this;
    }

    /// <summary>
    /// Returns only some fields of each result, read into a new object: <c>x =&gt; new { x.Customer, x.Total }</c>, or a
    /// named class with member initializers (<c>x =&gt; new CartSummary { Customer = x.Customer }</c>). Only those fields
    /// travel (the server copies them out of its cached JSON). A field a document lacks is read as null. Projected
    /// results are not entities: the session does not track them, and <see cref="DocumentSession.SaveChanges"/> never
    /// writes them.
    /// </summary>
    /// <exception cref="ArgumentException">The projection is not a new object whose members are chains of members of the entity.</exception>
    public ProjectedQuery<TResult> Select<TResult>(Expression<Func<T, TResult>> projection)
    {
        var fields = _session.ProjectionOf(projection);
        return new ProjectedQuery<TResult>(
            () => RunShapedPages(fields.FetchPaths),
            cancellationToken => RunShapedPagesAsync(fields.FetchPaths, cancellationToken),
            document => (TResult)_session.ReadProjected(fields, document, typeof(TResult)));
    }

    private QueryShape Shape(IReadOnlyList<string> fetchPaths) =>
        _includes.Count == 0 && fetchPaths.Count == 0 ? QueryShape.None : new QueryShape([.. _includes], fetchPaths);

    /// <summary>One page in the query's shape, counted as one request; its includes join the session.</summary>
    private QueryPage RunShaped(IReadOnlyList<string> fetchPaths)
    {
        _session.CountRequest();
        return Received(_session.RunQuery(_indexName, FirstPage(), Shape(fetchPaths)));
    }

    /// <summary>Every page of a projected query (as <see cref="ToList"/> pages through every match), counted as one request.</summary>
    private List<QueryPage> RunShapedPages(IReadOnlyList<string> fetchPaths)
    {
        var page = RunShaped(fetchPaths);
        var pages = new List<QueryPage> { page };
        var received = page.Projections.Count;
        while (More(page, received) is { } next)
        {
            page = Received(_session.RunQuery(_indexName, next, Shape(fetchPaths)));
            pages.Add(page);
            received += page.Projections.Count;
        }
        return pages;
    }

    private async Task<List<QueryPage>> RunShapedPagesAsync(IReadOnlyList<string> fetchPaths, CancellationToken cancellationToken)
    {
        var page = await RunShapedAsync(fetchPaths, cancellationToken).ConfigureAwait(false);
        var pages = new List<QueryPage> { page };
        var received = page.Projections.Count;
        while (More(page, received) is { } next)
        {
            page = Received(await _session.RunQueryAsync(_indexName, next, Shape(fetchPaths), cancellationToken).ConfigureAwait(false));
            pages.Add(page);
            received += page.Projections.Count;
        }
        return pages;
    }

    private async Task<QueryPage> RunShapedAsync(IReadOnlyList<string> fetchPaths, CancellationToken cancellationToken)
    {
        _session.CountRequest();
        return Received(await _session.RunQueryAsync(_indexName, FirstPage(), Shape(fetchPaths), cancellationToken).ConfigureAwait(false));
    }

    private QueryPage Received(QueryPage page)
    {
        Record(page);
        _session.RememberIncluded(page.Includes);
        return page;
    }

    private void ThrowIfIncludes()
    {
        if (_includes.Count > 0)
            throw new InvalidOperationException("Stream does not take includes: it tracks nothing, so there is nothing for a later Load to find. Use ToList for a page with includes.");
    }
}
