using System.Collections;
using System.Globalization;
using System.Linq.Expressions;
using RavenLite.Client.Querying;

namespace RavenLite.Client;

/// <summary>
/// The LINQ side of a query: <see cref="RavenQuery{T}"/> is an <see cref="IOrderedQueryable{T}"/>, so the standard
/// operators build on it. Each operator gives a new query (the one it was called on is unchanged); conditions,
/// orderings and paging become the index query, and terminal operators (<c>Count</c>, <c>Any</c>, <c>First</c>,
/// <c>Single</c>, <c>Min</c>, <c>Max</c>, <c>Sum</c>, <c>Average</c>) are answered from the index's totals and doc values.
/// Enumerating returns every match (after <c>Skip</c>, at most <c>Take</c>), tracked by the session.
/// </summary>
public sealed partial class RavenQuery<T> : IOrderedQueryable<T>, IRavenQueryable
{
    /// <inheritdoc />
    public Type ElementType => typeof(T);

    /// <inheritdoc />
    public Expression Expression => Expression.Constant(this);

    /// <inheritdoc />
    public IQueryProvider Provider => RavenQueryProvider.Instance;

    /// <inheritdoc />
    public IEnumerator<T> GetEnumerator() => ToList().GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>
    /// An OrderBy (<paramref name="restart"/>) or ThenBy key. LINQ to Objects sorts stably, so an OrderBy after an
    /// ordering sorts by its key with the earlier ordering breaking ties: its key goes first and the earlier keys
    /// stay behind it; a ThenBy goes after the keys of its own OrderBy. A key after one of the same field orders nothing.
    /// </summary>
    private void AddSortKey(string key, bool restart)
    {
        if (restart)
            _sortLead = 0;
        var field = key.TrimStart('-');
        if (_sort.Take(_sortLead).Any(k => k.TrimStart('-') == field))
            return;
        _sort.RemoveAll(k => k.TrimStart('-') == field);
        _sort.Insert(_sortLead++, key);
    }

    object IRavenQueryable.Apply(MethodCallExpression call)
    {
        var method = call.Method.Name;
        var lambda = call.Arguments.Count > 1 ? StripQuote(call.Arguments[1]) as LambdaExpression : null;
        switch (method)
        {
            case nameof(Queryable.Where) when lambda is { Parameters.Count: 1 }:
                ThrowIfPaged(call);
                var filtered = Clone();
                filtered._clauses.Add(QueryClause.FromPredicate(lambda, Translate));
                return filtered;
            case nameof(Queryable.OrderBy) or nameof(Queryable.OrderByDescending) or nameof(Queryable.ThenBy) or nameof(Queryable.ThenByDescending)
                when lambda is not null && call.Arguments.Count is 2 or 3:
                ThrowIfPaged(call);
                var ordered = Clone();
                var comparer = call.Arguments.Count == 3 ? TypedTranslator.Evaluate(call.Arguments[2]) : null;
                var field = _typed ? _session.Translator.SortField(lambda, comparer)
                    : comparer is null ? LuceneTranslator.SortField(lambda)
                    : throw TypedTranslator.Unsupported(call, "a comparer is taken by collection queries (session.Query<T>()), whose strings have sort keys");
                ordered.AddSortKey(method.EndsWith("Descending", StringComparison.Ordinal) ? "-" + field : field,
                    restart: method is nameof(Queryable.OrderBy) or nameof(Queryable.OrderByDescending));
                if (NonFiniteCheck(lambda, "ordered by") is { } nonFinite)
                    ordered._nonFinite.Add(nonFinite);
                return ordered;
            case nameof(Queryable.Skip):
                var count = (int)TypedTranslator.Evaluate(call.Arguments[1])!;
                ArgumentOutOfRangeException.ThrowIfNegative(count, "count");
                return Skipped(count);
            case nameof(Queryable.Take) when call.Arguments[1].Type == typeof(int):
                return Limited(Math.Max(0, (int)TypedTranslator.Evaluate(call.Arguments[1])!));
            case nameof(Queryable.GroupBy) when lambda is { Parameters.Count: 1 } && call.Arguments.Count == 2:
                return GroupBy(call, lambda);
            case nameof(Queryable.GroupBy):
                throw TypedTranslator.Unsupported(call, "GroupBy with an element selector, a result selector or a comparer is not supported; write " +
                                                        "GroupBy(x => key).Select(g => new { g.Key, Total = g.Sum(x => x.Member) }) and compute in the Select");
            case nameof(Queryable.Select) when lambda is { Parameters.Count: 1 }:
                return Activator.CreateInstance(typeof(ProjectedRavenQuery<,>).MakeGenericType(typeof(T), lambda.ReturnType), Clone(), lambda, false)!;
        }
        throw TypedTranslator.Unsupported(call, $"the operator '{method}' is not supported on a query (supported: Where, OrderBy, ThenBy, " +
            "Skip, Take, Select, Distinct after Select, GroupBy(key) then Select, and Count, LongCount, Any, First, FirstOrDefault, Single, SingleOrDefault, Min, Max, Sum, Average); " +
            "call ToList() first to go on in memory");
    }

    object? IRavenQueryable.Execute(MethodCallExpression call)
    {
        var method = call.Method.Name;
        var lambda = call.Arguments.Count > 1 ? StripQuote(call.Arguments[1]) as LambdaExpression : null;
        var query = this;
        if (lambda is not null && method is nameof(Queryable.Count) or nameof(Queryable.LongCount) or nameof(Queryable.Any)
                or nameof(Queryable.First) or nameof(Queryable.FirstOrDefault) or nameof(Queryable.Single) or nameof(Queryable.SingleOrDefault)
            && lambda.ReturnType == typeof(bool))
        {
            ThrowIfPaged(call);
            query = Clone();
            query._clauses.Add(QueryClause.FromText(Translate(lambda)));
            lambda = null;
        }
        switch (method)
        {
            case nameof(Queryable.Count) when lambda is null:
                return checked((int)query.CountMatches());
            case nameof(Queryable.LongCount) when lambda is null:
                return query.CountMatches();
            case nameof(Queryable.Any) when lambda is null:
                return query.CountMatches() > 0;
            case nameof(Queryable.First) or nameof(Queryable.FirstOrDefault) when lambda is null:
                var first = query.Limited(1).ToList();
                return first.Count > 0 ? first[0] : method == nameof(Queryable.First) ? throw NoElements() : null;
            case nameof(Queryable.Single) or nameof(Queryable.SingleOrDefault) when lambda is null:
                var two = query.Limited(2).ToList();
                if (two.Count > 1)
                    throw new InvalidOperationException("Sequence contains more than one element");
                return two.Count == 1 ? two[0] : method == nameof(Queryable.Single) ? throw NoElements() : null;
            case nameof(Queryable.Min) or nameof(Queryable.Max) or nameof(Queryable.Sum) or nameof(Queryable.Average) when lambda is not null:
                return query.Aggregate(call, method, lambda);
        }
        throw TypedTranslator.Unsupported(call, $"'{method}' is not supported on a query here");
    }

    /// <summary>As <see cref="CountMatches"/>, without blocking on the network.</summary>
    internal async Task<int> CountAsync(CancellationToken cancellationToken)
    {
        _session.CountRequest();
        var page = await RunQueryAsync(_indexName, Build(0, 0, null), cancellationToken).ConfigureAwait(false);
        return checked((int)Counted(page));
    }

    /// <summary>A copy with one more condition, for RavenLite's own operators (Search).</summary>
    internal RavenQuery<T> WithClause(Func<DocumentSession, string> clause, bool orElse = false)
    {
        ThrowIfPaged(Expression);
        var copy = Clone();
        var added = clause(_session);
        if (orElse && copy._clauses.Count > 0)
            copy._clauses[^1] = copy._clauses[^1].OrElse(added);
        else
            copy._clauses.Add(QueryClause.FromText(added));
        return copy;
    }

    /// <summary>The query after skipping <paramref name="count"/> more of its matches, as LINQ composes Skip after Skip or Take.</summary>
    private RavenQuery<T> Skipped(int count) => With(query =>
    {
        query._skip += count;
        if (query._take is { } take)
            query._take = Math.Max(0, take - count);
    });

    private RavenQuery<T> Limited(int count)
    {
        var limited = Clone();
        limited._take = Math.Min(limited._take ?? count, count);
        return limited;
    }

    /// <summary>The number of matches after Skip and within Take, from the index's total (no document is read).</summary>
    private long CountMatches()
    {
        _session.CountRequest();
        return Counted(RunQuery(_indexName, Build(0, 0, null)));
    }

    /// <summary>A count-only page's total as this query's count: after Skip, within Take.</summary>
    private long Counted(Backend.QueryPage page)
    {
        Record(page);
        var count = Math.Max(0L, page.TotalResults - (long)_skip);
        return _take is { } take ? Math.Min(count, take) : count;
    }


    private object? Aggregate(MethodCallExpression call, string method, LambdaExpression selector)
    {
        if (!_typed)
            throw TypedTranslator.Unsupported(call, "aggregates are answered for collection queries (session.Query<T>()), whose auto indexes hold each member's values by type");
        if (_skip != 0 || _take is not null)
            throw TypedTranslator.Unsupported(call, "an aggregate after Skip or Take is not supported: it covers every match");
        var (field, kind, memberType) = _session.Translator.AggregateField(selector);
        _session.CountRequest();
        if (NonFiniteCheck(selector, $"aggregated by {method}") is { } nonFinite)
            ThrowIfNonFinite([nonFinite]);
        // Min and Max need no sum: the index then decodes only the extreme values.
        var page = RunQuery(_indexName, Build(0, 0, null, field, aggregateSum: method is nameof(Queryable.Sum) or nameof(Queryable.Average)));
        Record(page);
        var aggregate = page.Aggregate ?? throw new InvalidOperationException("The server did not answer the aggregate (is it an older RavenLite?).");
        var resultType = call.Method.ReturnType;
        var nullableResult = Nullable.GetUnderlyingType(resultType) is not null || !resultType.IsValueType;
        if (aggregate.Count == 0 && method != nameof(Queryable.Sum))
            return nullableResult ? null : throw NoElements();
        var target = Nullable.GetUnderlyingType(resultType) ?? resultType;
        var memberUnderlying = Nullable.GetUnderlyingType(memberType) ?? memberType;
        switch (method)
        {
            case nameof(Queryable.Min) or nameof(Queryable.Max):
                var isMin = method == nameof(Queryable.Min);
                return kind switch
                {
                    TypedTranslator.Kind.Number => ConvertNumber(isMin ? aggregate.Min!.Value : aggregate.Max!.Value, target),
                    TypedTranslator.Kind.Instant => FromTicks((long)(isMin ? aggregate.ExactMin!.Value : aggregate.ExactMax!.Value), target),
                    _ => ConvertExact(isMin ? aggregate.ExactMin!.Value : aggregate.ExactMax!.Value, target),
                };
            case nameof(Queryable.Sum):
                if (kind == TypedTranslator.Kind.Instant)
                    throw TypedTranslator.Unsupported(call, "dates cannot be summed");
                return kind == TypedTranslator.Kind.Number
                    ? ConvertNumber(aggregate.Sum ?? 0, target)
                    : ConvertExact(aggregate.ExactSum ?? throw new OverflowException("The sum does not fit in a decimal."), target);
            default: // Average
                if (kind == TypedTranslator.Kind.Instant)
                    throw TypedTranslator.Unsupported(call, "dates cannot be averaged");
                if (kind == TypedTranslator.Kind.Number)
                    return ConvertNumber(aggregate.Sum!.Value / aggregate.Count, target);
                var sum = aggregate.ExactSum ?? throw new OverflowException("The sum does not fit in a decimal.");
                return memberUnderlying == typeof(decimal)
                    ? sum / aggregate.Count
                    : ConvertNumber((double)sum / aggregate.Count, target);
        }
    }

    private static object ConvertNumber(double value, Type target) =>
        target == typeof(float) ? (float)value : target == typeof(double) ? value : Convert.ChangeType(value, target, CultureInfo.InvariantCulture);

    private static object ConvertExact(decimal value, Type target) =>
        target.IsEnum ? Enum.ToObject(target, (long)value)
        : target == typeof(double) ? (double)value
        : target == typeof(float) ? (float)value
        : Convert.ChangeType(value, target, CultureInfo.InvariantCulture); // checked: an int Sum past int.MaxValue throws, as LINQ's does

    private static object FromTicks(long ticks, Type target) =>
        target == typeof(DateTimeOffset) ? new DateTimeOffset(ticks, TimeSpan.Zero) : (object)new DateTime(ticks, DateTimeKind.Utc);

    private void ThrowIfPaged(Expression call)
    {
        if (IsPaged)
            throw TypedTranslator.Unsupported(call, PagedFirst);
    }

    /// <inheritdoc cref="ThrowIfPaged(Expression)"/>
    private void ThrowIfPaged(string what)
    {
        if (IsPaged)
            throw new NotSupportedException($"{what}: {PagedFirst}.");
    }

    private bool IsPaged => _skip != 0 || _take is not null;

    private const string PagedFirst = "a condition or order after Skip or Take would apply to that page only; put Where and OrderBy first";

    internal static InvalidOperationException NoElements() => new("Sequence contains no elements");

    private static Expression StripQuote(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Quote } quote ? quote.Operand : expression;

    /// <summary>Every match, untracked, for a projection evaluated on the client: one request against the session's limit, as <see cref="Stream"/>.</summary>
    internal IEnumerable<T> Untracked()
    {
        _session.CountRequest();
        return Walk();
    }
}

/// <summary>What <see cref="RavenQueryProvider"/> asks of a query: an operator applied, or a terminal operator run.</summary>
internal interface IRavenQueryable
{
    object Apply(MethodCallExpression call);

    object? Execute(MethodCallExpression call);
}

/// <summary>
/// <c>query.Select(x =&gt; ...)</c>: the entities the query matches, read untracked, projected on the client by the
/// compiled selector; <c>Distinct</c>, <c>Skip</c>, <c>Take</c> and the terminal operators after it run in memory.
/// </summary>
internal sealed class ProjectedRavenQuery<T, TResult>(RavenQuery<T> source, LambdaExpression selector, bool distinct)
    : IOrderedQueryable<TResult>, IRavenQueryable where T : class
{
    private readonly Func<T, TResult> _project = (Func<T, TResult>)selector.Compile();

    public Type ElementType => typeof(TResult);

    public Expression Expression => Expression.Constant(this);

    public IQueryProvider Provider => RavenQueryProvider.Instance;

    public IEnumerator<TResult> GetEnumerator()
    {
        var results = source.Untracked().Select(_project);
        return (distinct ? results.Distinct() : results).GetEnumerator();
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    object IRavenQueryable.Apply(MethodCallExpression call) => call.Method.Name switch
    {
        nameof(Queryable.Distinct) when call.Arguments.Count == 1 => new ProjectedRavenQuery<T, TResult>(source, selector, distinct: true),
        _ => InMemory(call),
    };

    object? IRavenQueryable.Execute(MethodCallExpression call) => InMemory(call);

    /// <summary>Runs the operator over the projected results with LINQ to Objects.</summary>
    private object InMemory(MethodCallExpression call)
    {
        var results = this.ToList().AsQueryable();
        var rewritten = Expression.Call(call.Method, [Expression.Constant(results), .. call.Arguments.Skip(1)]);
        return Expression.Lambda(rewritten).Compile().DynamicInvoke()!;
    }
}

/// <summary>The provider behind every RavenLite query: operators go to the query they were called on.</summary>
internal sealed class RavenQueryProvider : IQueryProvider
{
    public static readonly RavenQueryProvider Instance = new();

    public IQueryable CreateQuery(Expression expression) => (IQueryable)Source(expression).Apply((MethodCallExpression)expression);

    public IQueryable<TElement> CreateQuery<TElement>(Expression expression) => (IQueryable<TElement>)Source(expression).Apply((MethodCallExpression)expression);

    public object? Execute(Expression expression) => Source(expression).Execute((MethodCallExpression)expression);

    public TResult Execute<TResult>(Expression expression) => (TResult)Source(expression).Execute((MethodCallExpression)expression)!;

    private static IRavenQueryable Source(Expression expression) =>
        expression is MethodCallExpression { Arguments: [ConstantExpression { Value: IRavenQueryable source }, ..] }
            ? source
            : throw new NotSupportedException($"The query expression '{expression}' is not supported: RavenLite queries take operators one at a time on a query.");
}
