using System.Collections;
using System.Linq.Expressions;
using RavenLite.Client.Backend;
using RavenLite.Client.Querying;

namespace RavenLite.Client;

public sealed partial class RavenQuery<T>
{
    private const string DynamicPrefix = "dynamic/";

    /// <summary>
    /// <c>GroupBy(key)</c> on a collection query: a query of the groups, whose only operator is the <c>Select</c> that
    /// names what each group's result holds. The bare collection grouped into what an auto map/reduce index computes is
    /// answered by that index (<see cref="GroupByTranslator"/>); a query with anything before GroupBy, or a key or an
    /// aggregate the index cannot compute exactly, by LINQ to Objects over the query's matches (<see cref="MatchedGroups{T, TKey, TResult}"/>).
    /// </summary>
    private object GroupBy(MethodCallExpression call, LambdaExpression key)
    {
        if (!_typed || !_indexName.StartsWith(DynamicPrefix, StringComparison.OrdinalIgnoreCase))
            throw TypedTranslator.Unsupported(call, "GroupBy is answered for collection queries (session.Query<T>()) by an auto map/reduce index; " +
                                                    "for an index queried by name, define a map/reduce index (RavenIndex<T> with GroupBy)");
        if (_includes.Count > 0 || _highlighted.Count > 0)
            throw TypedTranslator.Unsupported(call, "Include or Highlight before GroupBy is not supported: the results are groups, not documents; " +
                                                    "leave them out of a grouped query");
        GroupByTranslator.RefuseReferenceKey(key);
        var bare = _clauses.Count == 0 && _sort.Count == 0 && !_byScore && _skip == 0 && _take is null && _continuation is null;
        // Groups are totals: a stale index would leave matches out of them, so the matches are read once it has caught up.
        var source = Clone();
        source._wait = true;
        return Activator.CreateInstance(typeof(GroupedRavenQuery<,>).MakeGenericType(typeof(T), key.ReturnType),
            source, _indexName[DynamicPrefix.Length..], key, bare)!;
    }

    internal DocumentSession Session => _session;

    internal TimeSpan? Timeout => _timeout;

    /// <summary>Every match (after Skip, within Take), read as stored, untracked: one request against the session's limit.</summary>
    internal List<T> Matches()
    {
        _session.CountRequest();
        ThrowIfNonFinite(_nonFinite);
        var matches = new List<T>();
        string? continuation = null;
        for (var taken = 0; ;)
        {
            var page = RunQuery(_indexName, MatchesPage(taken, continuation));
            if (Matched(page, matches, ref taken, ref continuation))
                return matches;
        }
    }

    /// <inheritdoc cref="Matches"/>
    internal async Task<List<T>> MatchesAsync(CancellationToken cancellationToken)
    {
        _session.CountRequest();
        await ThrowIfNonFiniteAsync(_nonFinite, cancellationToken).ConfigureAwait(false);
        var matches = new List<T>();
        string? continuation = null;
        for (var taken = 0; ;)
        {
            var page = await RunQueryAsync(_indexName, MatchesPage(taken, continuation), cancellationToken).ConfigureAwait(false);
            if (Matched(page, matches, ref taken, ref continuation))
                return matches;
        }
    }

    private IndexQuery MatchesPage(int taken, string? continuation)
    {
        var remaining = (_take ?? int.MaxValue) - taken;
        // A scored query has no continuation: its next page starts where this one ended.
        var start = _byScore ? _skip + taken : taken == 0 && _continuation is null ? _skip : 0;
        return Build(start, Math.Min(remaining, StreamPageSize), _byScore ? null : taken == 0 ? _continuation : continuation);
    }

    /// <summary>Adds a page's documents; true when no more are wanted or there are no more.</summary>
    private bool Matched(QueryPage page, List<T> matches, ref int taken, ref string? continuation)
    {
        Record(page);
        // As stored, not the session's tracked instance: the index matched the stored document, not unsaved changes.
        foreach (var document in page.Results)
            matches.Add(_session.Fresh<T>(document));
        taken += page.Results.Count;
        continuation = page.Continuation;
        if (_take is { } take && taken >= take)
            return true;
        return _byScore ? page.Results.Count == 0 || _skip + taken >= page.TotalResults : continuation is null || page.Results.Count == 0;
    }
}

/// <summary>
/// <c>session.Query&lt;T&gt;()....GroupBy(key)</c>: nothing runs until <c>Select(g =&gt; ...)</c> names what each
/// group's result holds.
/// </summary>
internal sealed class GroupedRavenQuery<T, TKey>(RavenQuery<T> source, string collection, LambdaExpression key, bool bare)
    : IQueryable<IGrouping<TKey, T>>, IRavenQueryable where T : class
{
    public Type ElementType => typeof(IGrouping<TKey, T>);

    public Expression Expression => Expression.Constant(this);

    public IQueryProvider Provider => RavenQueryProvider.Instance;

    public IEnumerator<IGrouping<TKey, T>> GetEnumerator() => throw Refused(Expression, "the groups themselves");

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    object IRavenQueryable.Apply(MethodCallExpression call)
    {
        var selector = call.Arguments.Count == 2 ? (call.Arguments[1] is UnaryExpression { NodeType: ExpressionType.Quote } quote ? quote.Operand : call.Arguments[1]) as LambdaExpression : null;
        if (call.Method.Name != nameof(Queryable.Select) || selector is not { Parameters.Count: 1 })
            throw Refused(call, $"'{call.Method.Name}' on the groups");
        var session = source.Session;
        // The whole collection, grouped as the auto map/reduce index computes: its precomputed results. Anything else
        // is grouped by LINQ to Objects itself over the query's matches.
        var translation = bare ? session.TranslateGroupBy(typeof(T), collection, key, selector) : null;
        var matched = Activator.CreateInstance(typeof(MatchedGroups<,,>).MakeGenericType(typeof(T), typeof(TKey), selector.ReturnType), source, session.CompileGrouping(key, selector))!;
        var loader = translation is not null
            ? Activator.CreateInstance(typeof(ReducedResults<>).MakeGenericType(selector.ReturnType), session, translation, source.Timeout, matched)!
            : matched;
        return LoadedResultsQuery.Create(selector.ReturnType, loader);
    }

    object? IRavenQueryable.Execute(MethodCallExpression call) => throw Refused(call, $"'{call.Method.Name}' on the groups");

    private static NotSupportedException Refused(Expression part, string what) => new(
        $"The query expression '{part}' is not supported: {what} cannot be read from a grouped query. After GroupBy write " +
        "Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total) }), then any LINQ operator on the results.");
}

/// <summary>The results of a grouped query, read whole each time the query runs.</summary>
internal abstract class ResultsLoader<TResult>
{
    public abstract IEnumerable<TResult> Load();

    public abstract Task<IEnumerable<TResult>> LoadAsync(CancellationToken cancellationToken);
}

/// <summary>
/// Every group's result from the auto map/reduce index, projected as the <c>Select</c> wrote it. The groups' counts
/// must add up to the collection's size: a document whose values the index cannot aggregate (a number beyond ±1e18, a
/// string in a number's place) is left out of it as an indexing error, and its totals would silently lack it; then the
/// collection is grouped in memory instead (<paramref name="inMemory"/>), as a grouped query with a condition is.
/// </summary>
internal sealed class ReducedResults<TResult>(DocumentSession session, GroupByTranslator.Translation translation, TimeSpan? timeout,
    ResultsLoader<TResult> inMemory) : ResultsLoader<TResult>
{
    /// <summary>How many times the groups are read before a shortfall is taken for documents the index left out rather than a write between two reads.</summary>
    private const int Attempts = 3;

    public override IEnumerable<TResult> Load()
    {
        for (var attempt = 1; attempt <= Attempts; attempt++)
        {
            var (documents, size) = session.ReduceResults(translation.Collection, translation.IndexName, translation.DefinitionJson, timeout);
            if (Complete(documents, size) is { } results)
                return results;
        }
        return inMemory.Load();
    }

    public override async Task<IEnumerable<TResult>> LoadAsync(CancellationToken cancellationToken)
    {
        for (var attempt = 1; attempt <= Attempts; attempt++)
        {
            var (documents, size) = await session.ReduceResultsAsync(translation.Collection, translation.IndexName, translation.DefinitionJson, timeout, cancellationToken)
                .ConfigureAwait(false);
            if (Complete(documents, size) is { } results)
                return results;
        }
        return await inMemory.LoadAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The projected results when they account for every document; null when they do not (a write between reading the collection's size and the groups, or documents the index left out).</summary>
    private List<TResult>? Complete(List<StoredDocument> documents, long size)
    {
        var results = new List<TResult>(documents.Count);
        var counted = 0L;
        foreach (var document in documents)
        {
            results.Add((TResult)translation.Project(document.DataJson, out var count)!);
            counted += count;
        }
        return counted == size ? results : null;
    }
}

/// <summary>
/// The query's matches (its Where, Search, order and paging answered by the collection's auto index, as for
/// <c>ToList</c>), read as stored, then grouped and projected by LINQ to Objects with the query's own key and selector:
/// the same code computes the answer as in memory, so keys compare by LINQ's equality (DateTimeOffset by instant, -0.0
/// as 0.0, NaN as itself, 1.0m as 1.00m), decimals stay exact, and empty or null sequences behave as LINQ's do.
/// </summary>
internal sealed class MatchedGroups<T, TKey, TResult>(RavenQuery<T> source, (Delegate Key, Delegate Selector) compiled) : ResultsLoader<TResult>
    where T : class
{
    private readonly Func<T, TKey> _key = (Func<T, TKey>)compiled.Key;
    private readonly Func<IGrouping<TKey, T>, TResult> _select = (Func<IGrouping<TKey, T>, TResult>)compiled.Selector;

    public override IEnumerable<TResult> Load() => Group(source.Matches());

    public override async Task<IEnumerable<TResult>> LoadAsync(CancellationToken cancellationToken) =>
        Group(await source.MatchesAsync(cancellationToken).ConfigureAwait(false));

    // Deferred as LINQ's own Select is: a First() after it projects only the first group.
    private IEnumerable<TResult> Group(List<T> matches) => matches.GroupBy(_key).Select(_select);
}

/// <summary>What the async operators ask of a query whose results are read whole (a grouped query, then any operators).</summary>
internal interface IAsyncResults<TElement>
{
    /// <summary>Reads the results without blocking, then runs <paramref name="terminal"/> over them as LINQ to Objects would (lazily: First projects one group).</summary>
    Task<TOutput> RunAsync<TOutput>(Func<IEnumerable<TElement>, TOutput> terminal, CancellationToken cancellationToken);
}

internal static class LoadedResultsQuery
{
    /// <summary>The results of <paramref name="loader"/> (a <see cref="ResultsLoader{TResult}"/>) with no operator after them.</summary>
    public static object Create(Type resultType, object loader)
    {
        var source = Expression.Parameter(typeof(IOrderedQueryable<>).MakeGenericType(resultType), "results");
        return Activator.CreateInstance(typeof(LoadedResultsQuery<,>).MakeGenericType(resultType, resultType), loader, source, source)!;
    }
}

/// <summary>
/// A grouped query's results and the LINQ operators after them (<c>Where</c>, <c>OrderBy</c>, <c>Skip</c>, <c>Count</c>,
/// <c>First</c>, ...), kept as an expression over the results and run with LINQ to Objects once they are read (again
/// each time the query runs), so they mean exactly what they mean in memory, sync or async.
/// </summary>
internal sealed class LoadedResultsQuery<TSource, TElement>(ResultsLoader<TSource> loader, ParameterExpression source, Expression body)
    : IOrderedQueryable<TElement>, IRavenQueryable, IAsyncResults<TElement>
{
    public Type ElementType => typeof(TElement);

    public Expression Expression => Expression.Constant(this);

    public IQueryProvider Provider => RavenQueryProvider.Instance;

    public IEnumerator<TElement> GetEnumerator() => Run(loader.Load()).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public async Task<TOutput> RunAsync<TOutput>(Func<IEnumerable<TElement>, TOutput> terminal, CancellationToken cancellationToken) =>
        terminal(Run(await loader.LoadAsync(cancellationToken).ConfigureAwait(false)));

    object IRavenQueryable.Apply(MethodCallExpression call)
    {
        var next = Expression.Call(call.Method, [body, .. call.Arguments.Skip(1)]);
        var element = call.Type.GetGenericArguments()[0];
        return Activator.CreateInstance(typeof(LoadedResultsQuery<,>).MakeGenericType(typeof(TSource), element), loader, source, next)!;
    }

    object? IRavenQueryable.Execute(MethodCallExpression call)
    {
        var terminal = Expression.Call(call.Method, [body, .. call.Arguments.Skip(1)]);
        // Invoked as a typed delegate, not DynamicInvoke: First() on no results throws InvalidOperationException, not a wrapper.
        var run = Expression.Lambda<Func<IOrderedQueryable<TSource>, object?>>(Expression.Convert(terminal, typeof(object)), source).Compile();
        return run(Results(loader.Load()));
    }

    private IEnumerable<TElement> Run(IEnumerable<TSource> loaded) =>
        Expression.Lambda<Func<IOrderedQueryable<TSource>, IQueryable<TElement>>>(body, source).Compile()(Results(loaded));

    private static IOrderedQueryable<TSource> Results(IEnumerable<TSource> loaded) => (IOrderedQueryable<TSource>)loaded.AsQueryable();
}
