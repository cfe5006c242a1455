using System.Collections;
using System.Linq.Expressions;
using RavenLite.Client.Querying;

namespace RavenLite.Client;

public sealed partial class RavenQuery<T>
{
    private const string DynamicPrefix = "dynamic/";

    /// <summary>
    /// <c>GroupBy(key)</c> on a collection query: a query of the groups, whose only operator is the <c>Select</c> that
    /// names the key and the aggregates (see <see cref="GroupByTranslator"/>).
    /// </summary>
    private object GroupBy(MethodCallExpression call, LambdaExpression key)
    {
        if (!_typed || !_indexName.StartsWith(DynamicPrefix, StringComparison.OrdinalIgnoreCase))
            throw TypedTranslator.Unsupported(call, "GroupBy is answered for collection queries (session.Query<T>()) by an auto map/reduce index; " +
                                                    "for an index queried by name, define a map/reduce index (RavenIndex<T> with GroupBy)");
        if (_clauses.Count > 0)
            throw TypedTranslator.Unsupported(call, "a Where (or Search) before GroupBy is not supported: the auto map/reduce index groups every document " +
                                                    "of the collection; group first and filter the groups after Select, or define a map/reduce index");
        if (_sort.Count > 0 || _byScore)
            throw TypedTranslator.Unsupported(call, "an OrderBy before GroupBy is not supported; order the groups after Select");
        if (_skip != 0 || _take is not null || _continuation is not null)
            throw TypedTranslator.Unsupported(call, "Skip, Take or StartAfter before GroupBy is not supported: the groups cover every document");
        if (_includes.Count > 0 || _highlighted.Count > 0)
            throw TypedTranslator.Unsupported(call, "Include or Highlight before GroupBy is not supported: the results are groups, not documents");
        var collection = _indexName[DynamicPrefix.Length..];
        return Activator.CreateInstance(typeof(GroupedRavenQuery<,>).MakeGenericType(typeof(T), key.ReturnType),
            _session, collection, key, _timeout)!;
    }
}

/// <summary>
/// <c>session.Query&lt;T&gt;().GroupBy(key)</c>: nothing runs until <c>Select(g =&gt; ...)</c> names what each group's
/// result holds; then an auto map/reduce index answers (<see cref="ReducedRavenQuery{TResult}"/>).
/// </summary>
internal sealed class GroupedRavenQuery<T, TKey>(DocumentSession session, string collection, LambdaExpression key, TimeSpan? timeout)
    : IQueryable<IGrouping<TKey, T>>, IRavenQueryable
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
        var translation = session.TranslateGroupBy(typeof(T), collection, key, selector);
        return Activator.CreateInstance(typeof(ReducedRavenQuery<>).MakeGenericType(selector.ReturnType), session, translation, timeout)!;
    }

    object? IRavenQueryable.Execute(MethodCallExpression call) => throw Refused(call, $"'{call.Method.Name}' on the groups");

    private static NotSupportedException Refused(Expression part, string what) => new(
        $"The query expression '{part}' is not supported: {what} cannot be read from an auto map/reduce index. After GroupBy write " +
        "Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(x => x.Total) }) (Count, LongCount, Sum, Min, Max, Average of members), " +
        "then any LINQ operator on the results.");
}

/// <summary>
/// <c>GroupBy(...).Select(...)</c>: every result of the auto map/reduce index, projected as the <c>Select</c> wrote it.
/// The operators after it (<c>Where</c>, <c>OrderBy</c>, <c>Skip</c>, <c>Count</c>, <c>First</c>, ...) run with LINQ to
/// Objects over those results, so they mean exactly what they mean in memory; there is one result per group.
/// </summary>
internal sealed class ReducedRavenQuery<TResult>(DocumentSession session, GroupByTranslator.Translation translation, TimeSpan? timeout)
    : IOrderedQueryable<TResult>, IRavenQueryable
{
    public Type ElementType => typeof(TResult);

    public Expression Expression => Expression.Constant(this);

    public IQueryProvider Provider => RavenQueryProvider.Instance;

    /// <summary>The auto map/reduce index that answers this query.</summary>
    public string IndexName => translation.IndexName;

    public IEnumerator<TResult> GetEnumerator() => Results().GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>
    /// Every group's result. The groups' counts must add up to the collection's size: a document whose values the index
    /// cannot aggregate (a number beyond ±1e18, a string in a number's place) is left out of it as an indexing error, and
    /// its totals would silently lack it; that is refused rather than answered.
    /// </summary>
    private List<TResult> Results()
    {
        for (var attempt = 1; ; attempt++)
        {
            var (documents, size) = session.ReduceResults(translation.Collection, translation.IndexName, translation.DefinitionJson, timeout);
            var results = new List<TResult>(documents.Count);
            var counted = 0L;
            foreach (var document in documents)
            {
                results.Add((TResult)translation.Project(document.DataJson, out var count)!);
                counted += count;
            }
            if (counted == size)
                return results;
            // A write between reading the collection's size and the groups: read both again.
            if (attempt == 3)
                throw new InvalidOperationException(
                    $"The auto map/reduce index '{translation.IndexName}' holds {counted} of the {size} documents of '{translation.Collection}': the others have values " +
                    "it cannot aggregate exactly (a number beyond ±1e18, a string where a number is aggregated, a fraction in a whole-number member); " +
                    "its indexing errors (in the database's statistics) name them. The grouped query is refused rather than answered without them.");
        }
    }

    object IRavenQueryable.Apply(MethodCallExpression call) => InMemory(call)!;

    object? IRavenQueryable.Execute(MethodCallExpression call) => InMemory(call);

    /// <summary>Runs the operator with LINQ to Objects over the results, read again each time the query is enumerated.</summary>
    private object? InMemory(MethodCallExpression call)
    {
        var results = Deferred().AsQueryable();
        var rewritten = Expression.Call(call.Method, [Expression.Constant(results), .. call.Arguments.Skip(1)]);
        // Invoked as a typed delegate, not DynamicInvoke: First() on no results throws InvalidOperationException, not a wrapper.
        return Expression.Lambda<Func<object?>>(Expression.Convert(rewritten, typeof(object))).Compile()();
    }

    private IEnumerable<TResult> Deferred()
    {
        foreach (var result in Results())
            yield return result;
    }
}
