namespace RavenLite.Client;

/// <summary>
/// RavenLite's own operators for a LINQ query once a standard operator has made it an <see cref="IQueryable{T}"/>
/// (<c>session.Query&lt;Order&gt;().OrderBy(x =&gt; x.Total).Statistics(out var stats)</c>), and the async forms of the
/// operators that run it. Each needs a query made by a RavenLite session.
/// </summary>
public static class RavenQueryableExtensions
{
    /// <inheritdoc cref="RavenQuery{T}.Statistics"/>
    public static IQueryable<T> Statistics<T>(this IQueryable<T> source, out QueryStatistics statistics) where T : class =>
        Raven(source).Statistics(out statistics);

    /// <inheritdoc cref="RavenQuery{T}.WaitForNonStaleResults"/>
    public static IQueryable<T> WaitForNonStaleResults<T>(this IQueryable<T> source, TimeSpan? timeout = null) where T : class =>
        Raven(source).WaitForNonStaleResults(timeout);

    /// <inheritdoc cref="RavenQuery{T}.Stream"/>
    public static IEnumerable<T> Stream<T>(this IQueryable<T> source) where T : class => Raven(source).Stream();

    /// <inheritdoc cref="RavenQuery{T}.ToListAsync"/>
    /// <remarks>After <c>GroupBy(...).Select(...)</c> (and any operators after it), the groups' results.</remarks>
    public static Task<List<T>> ToListAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) where T : class =>
        source is IAsyncResults<T> results ? results.RunAsync(all => all.ToList(), cancellationToken) : Raven(source).ToListAsync(cancellationToken);

    /// <summary>The number of matches, from the index's total, without blocking on the network.</summary>
    public static async Task<int> CountAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) where T : class =>
        source is IAsyncResults<T> results
            ? await results.RunAsync(all => all.Count(), cancellationToken).ConfigureAwait(false)
            : await Raven(source).CountAsync(cancellationToken).ConfigureAwait(false);

    /// <summary>Whether anything matches, from the index's total, without blocking on the network.</summary>
    public static async Task<bool> AnyAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) where T : class =>
        source is IAsyncResults<T> results
            ? await results.RunAsync(all => all.Any(), cancellationToken).ConfigureAwait(false)
            : await Raven(source).CountAsync(cancellationToken).ConfigureAwait(false) > 0;

    /// <summary>The first match, or null, without blocking on the network.</summary>
    public static async Task<T?> FirstOrDefaultAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) where T : class
    {
        if (source is IAsyncResults<T> results)
            return await results.RunAsync(all => all.FirstOrDefault(), cancellationToken).ConfigureAwait(false);
        var first = await Raven(source).Clone().Take(1).ToListAsync(cancellationToken).ConfigureAwait(false);
        return first.Count > 0 ? first[0] : null;
    }

    /// <summary>The first match, without blocking on the network.</summary>
    /// <exception cref="InvalidOperationException">Nothing matches.</exception>
    public static async Task<T> FirstAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) where T : class =>
        await FirstOrDefaultAsync(source, cancellationToken).ConfigureAwait(false) ?? throw RavenQuery<T>.NoElements();

    /// <summary>
    /// Documents whose string member <paramref name="field"/> has any (or, with <paramref name="all"/>, every) word of
    /// <paramref name="terms"/>, matched as full text (words, case-insensitively). The member must be analyzed for word
    /// searches: a collection query's auto index is made so; a <see cref="RavenIndex{T}"/> lists it in its Search.
    /// </summary>
    public static IQueryable<T> Search<T>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, object?>> field, string terms, bool all)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(field);
        ArgumentNullException.ThrowIfNull(terms);
        return Raven(source).WithClause(query => query.Translator.Search(field, terms, all));
    }

    /// <summary>
    /// Documents whose string member <paramref name="field"/> has any or every word of <paramref name="terms"/>, as
    /// <see cref="Search{T}(IQueryable{T}, System.Linq.Expressions.Expression{Func{T, object?}}, string, bool)"/>, by
    /// <paramref name="options"/>: any term (<see cref="SearchOptions.AnyTerm"/>, the default) or every term
    /// (<see cref="SearchOptions.AllTerms"/>), and with <see cref="SearchOptions.OrElse"/> this search is an alternative to
    /// the condition before it (OR) instead of one more requirement (AND). <paramref name="boost"/> weighs this search's
    /// matches in a query ordered by score (<see cref="OrderByScore{T}"/>): 2 counts them twice as much.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="boost"/> is not positive.</exception>
    public static IQueryable<T> Search<T>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, object?>> field, string terms,
        SearchOptions options = SearchOptions.AnyTerm, float boost = 1) where T : class
    {
        ArgumentNullException.ThrowIfNull(field);
        ArgumentNullException.ThrowIfNull(terms);
        if (!(boost > 0) || float.IsInfinity(boost))
            throw new ArgumentOutOfRangeException(nameof(boost), boost, "A search's boost must be a positive number.");
        return Raven(source).WithClause(query =>
        {
            var clause = query.Translator.Search(field, terms, (options & SearchOptions.AllTerms) != 0);
            return boost == 1 ? clause : clause + "^" + boost.ToString("R", System.Globalization.CultureInfo.InvariantCulture);
        }, orElse: (options & SearchOptions.OrElse) != 0);
    }

    /// <summary>
    /// Orders by relevance, most relevant first (BM25; boosts count); an <c>OrderBy</c> as well breaks ties. Each
    /// result's score is in the query's <see cref="QueryStatistics.Scores"/> (<c>Statistics(out ...)</c>).
    /// </summary>
    public static IQueryable<T> OrderByScore<T>(this IQueryable<T> source) where T : class => Raven(source).ByScore();

    /// <summary>
    /// Asks for highlighted fragments of <paramref name="field"/> (a member searched with <c>Search</c>, or a full-text
    /// field of the index) for each result: at most <paramref name="fragmentCount"/> fragments of about
    /// <paramref name="fragmentLength"/> characters, the matched terms wrapped in <paramref name="preTag"/> and
    /// <paramref name="postTag"/>, the rest HTML-escaped. <paramref name="highlights"/> is filled in when the query runs.
    /// </summary>
    public static IQueryable<T> Highlight<T>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, object?>> field,
        int fragmentCount, int fragmentLength, out QueryHighlights highlights, string preTag = "<b>", string postTag = "</b>") where T : class
    {
        ArgumentNullException.ThrowIfNull(field);
        var query = Raven(source);
        return query.Highlighted(query.FieldName(field), fragmentCount, fragmentLength, out highlights, preTag, postTag);
    }

    /// <summary>
    /// Starts the facets of the query's matches with counts per value of <paramref name="field"/>; add more with the
    /// result's <c>AndAggregateBy</c>, run them all in one query with <see cref="FacetQuery{T}.Execute"/>.
    /// </summary>
    /// <inheritdoc cref="FacetQuery{T}.AndAggregateBy{TValue}(System.Linq.Expressions.Expression{Func{T, TValue}}, int?, FacetOrder)"/>
    public static FacetQuery<T> AggregateBy<T, TValue>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, TValue>> field, int? top = null, FacetOrder order = FacetOrder.Count)
        where T : class => new FacetQuery<T>(Raven(source).Clone()).AndAggregateBy(field, top, order);

    /// <summary>Starts the facets of the query's matches with counts per range of <paramref name="field"/>.</summary>
    /// <inheritdoc cref="FacetQuery{T}.AndAggregateByRanges{TValue}(System.Linq.Expressions.Expression{Func{T, TValue}}, TValue[])"/>
    public static FacetQuery<T> AggregateByRanges<T, TValue>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, TValue>> field, params TValue[] boundaries)
        where T : class => new FacetQuery<T>(Raven(source).Clone()).AndAggregateByRanges(field, boundaries);

    /// <summary>Starts the facets of the query's matches with counts per range of the values of a collection.</summary>
    /// <inheritdoc cref="FacetQuery{T}.AndAggregateByRanges{TValue}(System.Linq.Expressions.Expression{Func{T, IEnumerable{TValue}}}, TValue[])"/>
    public static FacetQuery<T> AggregateByRanges<T, TValue>(this IQueryable<T> source, System.Linq.Expressions.Expression<Func<T, IEnumerable<TValue>>> field, params TValue[] boundaries)
        where T : class => new FacetQuery<T>(Raven(source).Clone()).AndAggregateByRanges(field, boundaries);

    /// <summary>Starts the facets of the query's matches with <paramref name="facet"/> as written (a field by its index name).</summary>
    public static FacetQuery<T> AggregateBy<T>(this IQueryable<T> source, FacetRequest facet) where T : class =>
        new FacetQuery<T>(Raven(source).Clone()).AndAggregateBy(facet);

    private static RavenQuery<T> Raven<T>(IQueryable<T> source) where T : class
    {
        ArgumentNullException.ThrowIfNull(source);
        if (source is IRavenQueryable and not RavenQuery<T>)
            throw new NotSupportedException($"This operator is not supported after Select(...) (or RavenLite's own operators after GroupBy(...).Select(...)): use the synchronous form (ToList(), Count(), First(), ...), or ToListAsync() and go on in memory.");
        return source as RavenQuery<T>
            ?? throw new ArgumentException($"This operator needs a query made by a RavenLite session (session.Query<T>()), not a {source.GetType().Name}.", nameof(source));
    }
}
