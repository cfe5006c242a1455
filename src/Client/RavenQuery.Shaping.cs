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
        var path = _session.IncludePathOf(include);
        return With(query => query._includes.Add(path));
    }

    /// <summary>
    /// Each result read into something else. A new object whose members are members of the entity
    /// (<c>x =&gt; new { x.Customer, x.Total }</c>, or a named class with member initializers) is projected by the server:
    /// only those fields travel (copied out of its cached JSON), and a field a document lacks is read as null. Any other
    /// projection (<c>x =&gt; x.Customer</c>, computed values, method calls) runs on the client over every matching
    /// entity, read untracked, as LINQ to Objects would. Projected results are not entities: the session does not
    /// track them, and <see cref="DocumentSession.SaveChanges"/> never writes them.
    /// </summary>
    public ProjectedQuery<TResult> Select<TResult>(Expression<Func<T, TResult>> projection)
    {
        ArgumentNullException.ThrowIfNull(projection);
        Querying.Projection fields;
        try
        {
            fields = _session.ProjectionOf(projection);
        }
        catch (ArgumentException)
        {
            var project = projection.Compile();
            return new ProjectedQuery<TResult>(() => [.. Untracked().Select(project)], async cancellationToken =>
            {
                _session.CountRequest();
                var results = new List<TResult>();
                await foreach (var entity in WalkAsync(cancellationToken).ConfigureAwait(false))
                    results.Add(project(entity));
                return results;
            });
        }
        return new ProjectedQuery<TResult>(
            () => Read<TResult>(RunShapedPages(fields.FetchPaths), fields),
            async cancellationToken => Read<TResult>(await RunShapedPagesAsync(fields.FetchPaths, cancellationToken).ConfigureAwait(false), fields));
    }

    private List<TResult> Read<TResult>(List<QueryPage> pages, Querying.Projection fields)
    {
        var results = new List<TResult>(pages.Sum(page => page.Projections.Count));
        foreach (var page in pages)
        {
            foreach (var document in page.Projections)
                results.Add((TResult)_session.ReadProjected(fields, document, typeof(TResult)));
        }
        return results;
    }

    private QueryShape Shape(IReadOnlyList<string> fetchPaths) =>
        _includes.Count == 0 && fetchPaths.Count == 0 ? QueryShape.None : new QueryShape([.. _includes], fetchPaths);

    /// <summary>One page in the query's shape, counted as one request; its includes join the session.</summary>
    private QueryPage RunShaped(IReadOnlyList<string> fetchPaths)
    {
        _session.CountRequest();
        ThrowIfNonFinite(_nonFinite);
        return Received(RunQuery(_indexName, FirstPage(), Shape(fetchPaths)));
    }

    /// <summary>Every page of a projected query (as <see cref="ToList"/> pages through every match), counted as one request.</summary>
    private List<QueryPage> RunShapedPages(IReadOnlyList<string> fetchPaths)
    {
        var page = RunShaped(fetchPaths);
        var pages = new List<QueryPage> { page };
        var received = page.Projections.Count;
        while (More(page, received) is { } next)
        {
            page = Received(RunQuery(_indexName, next, Shape(fetchPaths)));
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
            page = Received(await RunQueryAsync(_indexName, next, Shape(fetchPaths), cancellationToken).ConfigureAwait(false));
            pages.Add(page);
            received += page.Projections.Count;
        }
        return pages;
    }

    private async Task<QueryPage> RunShapedAsync(IReadOnlyList<string> fetchPaths, CancellationToken cancellationToken)
    {
        _session.CountRequest();
        await ThrowIfNonFiniteAsync(_nonFinite, cancellationToken).ConfigureAwait(false);
        return Received(await RunQueryAsync(_indexName, FirstPage(), Shape(fetchPaths), cancellationToken).ConfigureAwait(false));
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
