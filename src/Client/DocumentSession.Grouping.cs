using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>
    /// Every result of the auto map/reduce index <paramref name="indexName"/> (made from <paramref name="definitionJson"/>
    /// on first use, and again if it was deleted since), after it has indexed every write made before the query: its
    /// results are aggregates over the whole collection, so a stale page would be a wrong total rather than a short list.
    /// One request against the session's limit however many pages.
    /// </summary>
    /// <returns>The results, and how many documents the collection had just before they were read (all waited for).</returns>
    internal (List<StoredDocument> Results, long CollectionSize) ReduceResults(string collection, string indexName, string definitionJson, TimeSpan? timeout)
    {
        ThrowIfDisposed();
        CountRequest();
        if (!_store.AutoReduceIndexes.ContainsKey(indexName))
            Deploy(indexName, definitionJson);
        var size = Backend.Query("dynamic/" + collection, new IndexQuery { Query = "", PageSize = 0, WaitForNonStaleResults = true, Timeout = timeout }).TotalResults;
        try
        {
            return (ReadAll(indexName, timeout), size);
        }
        catch (IndexNotFoundException)
        {
            // Deleted since this store made it (DELETE /indexes/Auto/...): made again, as a collection query's auto index is.
            Deploy(indexName, definitionJson);
            return (ReadAll(indexName, timeout), size);
        }
    }

    /// <summary>
    /// The translation of <c>GroupBy(key).Select(selector)</c> on <paramref name="source"/>'s collection, cached per store
    /// by shape when neither lambda holds a constant: a captured variable is a constant of the expression tree, and two
    /// queries that print alike but capture different values must not share a compiled projection.
    /// </summary>
    internal Querying.GroupByTranslator.Translation TranslateGroupBy(Type source, string collection, System.Linq.Expressions.LambdaExpression key,
        System.Linq.Expressions.LambdaExpression selector)
    {
        if (HasConstant(key) || HasConstant(selector))
            return Querying.GroupByTranslator.Translate(collection, key, selector, Translator);
        var cache = _store.GroupByTranslations;
        var shape = (source, selector.ReturnType, $"{collection}\n{key.ReturnType.AssemblyQualifiedName}\n{key}", selector.ToString());
        if (cache.TryGetValue(shape, out var known))
            return known;
        var translation = Querying.GroupByTranslator.Translate(collection, key, selector, Translator);
        if (cache.Count >= MaxGroupByShapes)
            cache.Clear(); // a bound, not a policy: shapes past it are translated again
        cache[shape] = translation;
        return translation;
    }

    private const int MaxGroupByShapes = 1024;

    private static bool HasConstant(System.Linq.Expressions.Expression expression)
    {
        var found = false;
        new ConstantFinder(() => found = true).Visit(expression);
        return found;
    }

    private sealed class ConstantFinder(Action found) : System.Linq.Expressions.ExpressionVisitor
    {
        protected override System.Linq.Expressions.Expression VisitConstant(System.Linq.Expressions.ConstantExpression node)
        {
            found();
            return node;
        }
    }

    private void Deploy(string indexName, string definitionJson)
    {
        Backend.PutIndex(indexName, definitionJson);
        _store.AutoReduceIndexes[indexName] = true;
    }

    private List<StoredDocument> ReadAll(string indexName, TimeSpan? timeout)
    {
        var results = new List<StoredDocument>();
        string? continuation = null;
        while (true)
        {
            var page = Backend.Query(indexName, new IndexQuery
            {
                Query = "",
                PageSize = 1024,
                WaitForNonStaleResults = true,
                Timeout = timeout,
                Continuation = continuation,
            });
            results.AddRange(page.Results);
            continuation = page.Continuation;
            if (continuation is null || page.Results.Count == 0)
                return results;
        }
    }
}
