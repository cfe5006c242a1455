using RavenLite.Client.Backend;

namespace RavenLite.Client;

/// <summary>
/// A query of an index: LINQ (it is an <see cref="IOrderedQueryable{T}"/>) or RavenLite's own chain
/// (<see cref="Where(string)"/> in Lucene syntax, <see cref="OrderBy"/> by field name, <see cref="Skip"/>,
/// <see cref="Take"/>, ...), run by <see cref="ToList"/> (every match, tracked by the session) or <see cref="Stream"/>
/// (every match, page after page, untracked). Obtain one from <see cref="DocumentSession.Query{T}()"/>.
/// </summary>
/// <typeparam name="T">The entity type results are read as.</typeparam>
public sealed partial class RavenQuery<T> where T : class
{
    private readonly DocumentSession _session;
    private readonly string _indexName;
    private readonly bool _typed;
    private readonly List<Querying.QueryClause> _clauses = [];
    private readonly List<string> _sort = [];
    // How many of _sort's keys the latest OrderBy and its ThenBys wrote: the keys after them are an earlier
    // ordering, which a later OrderBy keeps as its tie-break (LINQ's sorts are stable).
    private int _sortLead;
    private QueryStatistics? _statistics;
    private int _skip;
    private int? _take;
    private bool _wait;
    private TimeSpan? _timeout;
    private string? _continuation;
    private bool _byScore;
    // Members ordered by whose NaN and infinities the serializer writes as text: (the clause matching them, the refusal).
    private readonly List<(string Clause, string Refusal)> _nonFinite = [];

    /// <param name="session">The session that runs it.</param>
    /// <param name="indexName">The index, or <c>dynamic/{collection}</c> for a collection query.</param>
    /// <param name="typed">Whether C# conditions are translated for an auto index's typed fields (collection queries).</param>
    internal RavenQuery(DocumentSession session, string indexName, bool typed)
    {
        _session = session;
        _indexName = indexName;
        _typed = typed;
    }

    /// <summary>
    /// A copy changed by <paramref name="change"/>: every operator returns a new query and leaves this one as it is, as
    /// LINQ's do, so a query kept in a variable and refined two ways (<c>q.Where(a)</c>, then <c>q.Where(b)</c>) gives
    /// two independent queries, not the second with the first's condition too.
    /// </summary>
    private RavenQuery<T> With(Action<RavenQuery<T>> change)
    {
        var copy = Clone();
        change(copy);
        return copy;
    }

    /// <summary>A copy with the same conditions, order, paging and options, for a LINQ operator to add to.</summary>
    internal RavenQuery<T> Clone()
    {
        var copy = new RavenQuery<T>(_session, _indexName, _typed)
        {
            _statistics = _statistics,
            _skip = _skip,
            _take = _take,
            _wait = _wait,
            _timeout = _timeout,
            _continuation = _continuation,
            _byScore = _byScore,
            _sortLead = _sortLead,
            _highlight = _highlight,
            _hasLuceneClause = _hasLuceneClause,
        };
        copy._clauses.AddRange(_clauses);
        copy._sort.AddRange(_sort);
        copy._includes.AddRange(_includes);
        copy._highlighted.AddRange(_highlighted);
        copy._nonFinite.AddRange(_nonFinite);
        return copy;
    }

    /// <summary>
    /// Adds a condition in Lucene syntax (<c>ProductId:42 AND Price:[* TO 10]</c>); several are combined with AND.
    /// </summary>
    public RavenQuery<T> Where(string luceneQuery)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(luceneQuery);
        ThrowIfPaged($"Where(\"{luceneQuery}\")");
        return With(query =>
        {
            query._clauses.Add(Querying.QueryClause.FromText(luceneQuery));
            query._hasLuceneClause = true;
        });
    }

    /// <summary>
    /// Adds a condition written in C#, translated to Lucene: <c>==</c>, <c>&lt;</c>, <c>&lt;=</c>, <c>&gt;</c>,
    /// <c>&gt;=</c>, <c>&amp;&amp;</c>, <c>||</c>, <c>StartsWith</c>, and <c>Any(x =&gt; x.P == v)</c> over a collection.
    /// Each member stands for the index field of the same name (inside <c>Any</c>, the item's member:
    /// <c>c.Items.Any(i =&gt; i.ProductId == 42)</c> is <c>ProductId:42</c>).
    /// </summary>
    /// <exception cref="NotSupportedException">The expression uses something outside that subset.</exception>
    public RavenQuery<T> Where(System.Linq.Expressions.Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        ThrowIfPaged($"Where({predicate})");
        var clause = Querying.QueryClause.FromPredicate(predicate, Translate);
        return With(query => query._clauses.Add(clause));
    }

    /// <summary>Whether a condition was given in Lucene syntax: then a query the index refuses is the caller's <see cref="QueryException"/>.</summary>
    private bool _hasLuceneClause;

    /// <summary>
    /// Runs a page of the query. An index refusing a query made only of translated C# (a condition the index's data
    /// cannot answer exactly, such as <c>EndsWith</c> on a field holding values longer than its terms keep) is a
    /// <see cref="NotSupportedException"/>, as a translation's own refusals are: the C# was never Lucene to the caller.
    /// </summary>
    private QueryPage RunQuery(string indexName, IndexQuery query, QueryShape? shape = null)
    {
        try
        {
            return _session.RunQuery(indexName, query, shape ?? QueryShape.None);
        }
        catch (QueryException ex) when (!_hasLuceneClause)
        {
            throw Refused(ex);
        }
    }

    /// <inheritdoc cref="RunQuery(string, IndexQuery, QueryShape?)"/>
    private async Task<QueryPage> RunQueryAsync(string indexName, IndexQuery query, QueryShape? shape, CancellationToken cancellationToken)
    {
        try
        {
            return await _session.RunQueryAsync(indexName, query, shape ?? QueryShape.None, cancellationToken).ConfigureAwait(false);
        }
        catch (QueryException ex) when (!_hasLuceneClause)
        {
            throw Refused(ex);
        }
    }

    /// <inheritdoc cref="RunQuery(string, IndexQuery, QueryShape?)"/>
    private Task<QueryPage> RunQueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken) =>
        RunQueryAsync(indexName, query, null, cancellationToken);

    private static NotSupportedException Refused(QueryException ex) =>
        new($"The index cannot answer this query exactly: {ex.Message}", ex);

    private string Translate(System.Linq.Expressions.LambdaExpression predicate) =>
        _typed ? _session.Translator.Where(predicate) : Querying.LuceneTranslator.Translate(predicate);

    /// <summary>Skips the first <paramref name="count"/> matches (after a Skip or Take, of what they left, as LINQ composes them).</summary>
    public RavenQuery<T> Skip(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        return Skipped(count);
    }

    /// <summary>
    /// Returns at most <paramref name="count"/> matches; without it, <see cref="ToList"/> and <see cref="Stream"/> return
    /// every match. Both ask for pages of at most 1,024 (the server's maximum) and continue where the last one ended.
    /// </summary>
    public RavenQuery<T> Take(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        return Limited(count);
    }

    /// <summary>Orders by a sortable index field, ascending; call again (or <see cref="OrderByDescending"/>) for ties.</summary>
    public RavenQuery<T> OrderBy(string field)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(field);
        ThrowIfPaged($"OrderBy(\"{field}\")");
        return With(query =>
        {
            query._sort.Add(field);
            query._sortLead = query._sort.Count;
        });
    }

    /// <summary>Orders by a sortable index field, descending.</summary>
    public RavenQuery<T> OrderByDescending(string field)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(field);
        ThrowIfPaged($"OrderByDescending(\"{field}\")");
        return With(query =>
        {
            query._sort.Add("-" + field);
            query._sortLead = query._sort.Count;
        });
    }

    /// <summary>
    /// Waits until the index has indexed every write made before the query (up to <paramref name="timeout"/>, default
    /// the database's 15 s; past it a <see cref="TimeoutException"/>).
    /// </summary>
    public RavenQuery<T> WaitForNonStaleResults(TimeSpan? timeout = null)
    {
        if (timeout is { } t)
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(t, TimeSpan.Zero, nameof(timeout));
        return With(query =>
        {
            query._wait = true;
            query._timeout = timeout;
        });
    }

    /// <summary>Hands out the statistics object that the query fills in when it runs.</summary>
    public RavenQuery<T> Statistics(out QueryStatistics statistics)
    {
        var filled = statistics = new QueryStatistics();
        return With(query => query._statistics = filled);
    }

    /// <summary>Continues after the page a previous run ended with (<see cref="QueryStatistics.Continuation"/>), instead of skipping.</summary>
    public RavenQuery<T> StartAfter(string continuation)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(continuation);
        return With(query => query._continuation = continuation);
    }

    /// <summary>The Lucene query sent: the conditions, each in parentheses, joined with AND.</summary>
    public override string ToString() => string.Join(" AND ", _clauses.Select(c => _clauses.Count == 1 ? c.Current() : $"({c.Current()})"));

    /// <summary>The facet field of a member: a typed field with its kind's suffix; refused for a query of an untyped index by name.</summary>
    internal (string Field, Type ValueType) FacetField(System.Linq.Expressions.LambdaExpression field, bool ranges) =>
        _typed
            ? _session.Translator.FacetField(field, ranges)
            : throw new NotSupportedException($"Facets by member ({field}) are translated for collection queries and RavenIndex<T> indexes, whose fields are typed; for '{_indexName}' use AggregateBy(new FacetRequest {{ Field = \"...\" }}).");

    /// <summary>Runs the query for its facets only: no page, no document loaded.</summary>
    internal IReadOnlyList<FacetResult> RunFacets(IReadOnlyList<FacetRequest> facets, IReadOnlyList<(string Clause, string Refusal)> nonFinite)
    {
        CheckFacets();
        _session.CountRequest();
        ThrowIfNonFinite(nonFinite);
        var page = RunQuery(_indexName, Build(0, 0, null, facets: facets));
        Record(page);
        return page.Facets;
    }

    /// <inheritdoc cref="RunFacets"/>
    internal async Task<IReadOnlyList<FacetResult>> RunFacetsAsync(IReadOnlyList<FacetRequest> facets,
        IReadOnlyList<(string Clause, string Refusal)> nonFinite, CancellationToken cancellationToken)
    {
        CheckFacets();
        _session.CountRequest();
        await ThrowIfNonFiniteAsync(nonFinite, cancellationToken).ConfigureAwait(false);
        var page = await RunQueryAsync(_indexName, Build(0, 0, null, facets: facets), cancellationToken).ConfigureAwait(false);
        Record(page);
        return page.Facets;
    }

    private void CheckFacets()
    {
        if (_skip != 0 || _take is not null)
            throw new NotSupportedException("Facets after Skip or Take are not supported: they count every match.");
    }

    private IndexQuery Build(int start, int? pageSize, string? continuation, string? aggregate = null, bool aggregateSum = true,
        IReadOnlyList<FacetRequest>? facets = null) => new()
    {
        Query = ToString(),
        Start = start,
        PageSize = pageSize,
        SortBy = _sort.Count == 0 ? null : _sort,
        WaitForNonStaleResults = _wait,
        Timeout = _timeout,
        Continuation = continuation,
        Aggregate = aggregate,
        AggregateSum = aggregateSum,
        OrderByScore = _byScore,
        Highlight = _highlighted.Count == 0 || _highlight is not { } highlight ? null : new HighlightOptions
        {
            Fields = [.. _highlighted.Select(h => h.FieldName).Distinct()],
            FragmentCount = highlight.FragmentCount,
            FragmentLength = highlight.FragmentLength,
            PreTag = highlight.PreTag,
            PostTag = highlight.PostTag,
        },
        Facets = facets,
    };
}
