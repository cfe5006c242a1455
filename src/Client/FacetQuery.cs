using System.Linq.Expressions;

namespace RavenLite.Client;

/// <summary>
/// Facets of a LINQ query's matches, asked for with <see cref="RavenQueryableExtensions.AggregateBy{T, TValue}(IQueryable{T}, Expression{Func{T, TValue}}, int?, FacetOrder)"/>
/// and run together in one query by <see cref="Execute"/>: counts per value of a member, or per range, from the
/// index's doc values, without loading a document.
/// </summary>
/// <typeparam name="T">The entity type of the query.</typeparam>
public sealed class FacetQuery<T> where T : class
{
    private readonly RavenQuery<T> _query;
    private readonly List<FacetRequest> _facets;
    // For facets of float or double members: the clause matching NaN and infinities written as text, and the refusal.
    private readonly List<(string Clause, string Refusal)> _nonFinite;

    internal FacetQuery(RavenQuery<T> query) : this(query, [], []) { }

    private FacetQuery(RavenQuery<T> query, List<FacetRequest> facets, List<(string Clause, string Refusal)> nonFinite)
    {
        _query = query;
        _facets = facets;
        _nonFinite = nonFinite;
    }

    /// <summary>The facets asked for so far, in order: what <see cref="Execute"/> sends.</summary>
    public IReadOnlyList<FacetRequest> Facets => _facets;

    /// <summary>
    /// Also counts matches per value of <paramref name="field"/> (a member, a collection of values, or
    /// <c>x =&gt; x.Lines.Select(l =&gt; l.Price)</c>; a document counts once per distinct value it holds): the first
    /// <paramref name="top"/> (all when null) in <paramref name="order"/>, the rest counted in the result.
    /// </summary>
    public FacetQuery<T> AndAggregateBy<TValue>(Expression<Func<T, TValue>> field, int? top = null, FacetOrder order = FacetOrder.Count)
    {
        ArgumentNullException.ThrowIfNull(field);
        if (top is < 0)
            throw new ArgumentOutOfRangeException(nameof(top), top, "Top cannot be negative.");
        return Add(new FacetRequest { Field = _query.FacetField(field, ranges: false).Field, Top = top, Order = order }, _query.NonFiniteCheck(field, "counted by"));
    }

    /// <summary>
    /// Also counts matches per range of <paramref name="field"/> (a number or a date) between consecutive
    /// <paramref name="boundaries"/>, each from its lower bound inclusive to its upper bound exclusive, with one range
    /// below the first and one from the last up: boundaries 0, 100, 500 give <c>[* TO 0}</c>, <c>[0 TO 100}</c>,
    /// <c>[100 TO 500}</c> and <c>[500 TO *]</c>.
    /// </summary>
    public FacetQuery<T> AndAggregateByRanges<TValue>(Expression<Func<T, TValue>> field, params TValue[] boundaries) =>
        Ranges(field, boundaries);

    /// <summary>
    /// Also counts matches per range of the values of a collection (<c>x =&gt; x.Lines.Select(l =&gt; l.Price)</c>): a
    /// document counts once in each range that any of its values falls in.
    /// </summary>
    /// <inheritdoc cref="AndAggregateByRanges{TValue}(Expression{Func{T, TValue}}, TValue[])"/>
    public FacetQuery<T> AndAggregateByRanges<TValue>(Expression<Func<T, IEnumerable<TValue>>> field, params TValue[] boundaries) =>
        Ranges(field, boundaries);

    private FacetQuery<T> Ranges<TValue>(LambdaExpression field, TValue[] boundaries)
    {
        ArgumentNullException.ThrowIfNull(field);
        ArgumentNullException.ThrowIfNull(boundaries);
        if (boundaries.Length == 0)
            throw new ArgumentException("Give at least one boundary.", nameof(boundaries));
        var bounds = boundaries.Select(boundary => Querying.TypedTranslator.FacetBound(boundary ?? throw new ArgumentException("A boundary is null.", nameof(boundaries)))).ToList();
        var ranges = new List<FacetRange>(bounds.Count + 1) { new() { To = bounds[0] } };
        for (var i = 1; i < bounds.Count; i++)
            ranges.Add(new FacetRange { From = bounds[i - 1], To = bounds[i] });
        ranges.Add(new FacetRange { From = bounds[^1], ToInclusive = true });
        return Add(new FacetRequest { Field = _query.FacetField(field, ranges: true).Field, Ranges = ranges }, _query.NonFiniteCheck(field, "counted in ranges by"));
    }

    /// <summary>Also counts the facet <paramref name="facet"/> as written (an index field by name, ranges of any bounds).</summary>
    public FacetQuery<T> AndAggregateBy(FacetRequest facet)
    {
        ArgumentNullException.ThrowIfNull(facet);
        facet.Validate();
        return Add(facet, null);
    }

    // A new facet query, as LINQ operators return new queries: one kept in a variable and extended two ways stays as it was.
    private FacetQuery<T> Add(FacetRequest facet, (string Clause, string Refusal)? nonFinite) =>
        new(_query, [.. _facets, facet], nonFinite is { } check ? [.. _nonFinite, check] : _nonFinite);

    /// <summary>Runs the query once for every facet; the results in the order they were asked for.</summary>
    public IReadOnlyList<FacetResult> Execute() => _query.RunFacets(_facets, _nonFinite);

    /// <summary>Runs the query once for every facet, without blocking on the network.</summary>
    public Task<IReadOnlyList<FacetResult>> ExecuteAsync(CancellationToken cancellationToken = default) => _query.RunFacetsAsync(_facets, _nonFinite, cancellationToken);
}
