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

    /// <inheritdoc cref="ReduceResults"/>
    internal async Task<(List<StoredDocument> Results, long CollectionSize)> ReduceResultsAsync(string collection, string indexName, string definitionJson,
        TimeSpan? timeout, CancellationToken cancellationToken)
    {
        ThrowIfDisposed();
        CountRequest();
        if (!_store.AutoReduceIndexes.ContainsKey(indexName))
            await DeployAsync(indexName, definitionJson, cancellationToken).ConfigureAwait(false);
        var size = (await Backend.QueryAsync("dynamic/" + collection, new IndexQuery { Query = "", PageSize = 0, WaitForNonStaleResults = true, Timeout = timeout },
            cancellationToken).ConfigureAwait(false)).TotalResults;
        try
        {
            return (await ReadAllAsync(indexName, timeout, cancellationToken).ConfigureAwait(false), size);
        }
        catch (IndexNotFoundException)
        {
            await DeployAsync(indexName, definitionJson, cancellationToken).ConfigureAwait(false);
            return (await ReadAllAsync(indexName, timeout, cancellationToken).ConfigureAwait(false), size);
        }
    }

    /// <summary>A query's document as stored, for user code, whatever the session tracks under its key.</summary>
    internal T Fresh<T>(StoredDocument document) where T : class => (T)_store.Entities.Materialize(document, typeof(T), admit: false, out _);

    /// <summary>
    /// The translation of <c>GroupBy(key).Select(selector)</c> on <paramref name="source"/>'s collection into an auto
    /// map/reduce index, or null when the index cannot compute the shape exactly; cached per store by shape when neither
    /// lambda holds a constant: a captured variable is a constant of the expression tree, and two queries that print
    /// alike but capture different values must not share a compiled projection.
    /// </summary>
    internal Querying.GroupByTranslator.Translation? TranslateGroupBy(Type source, string collection, System.Linq.Expressions.LambdaExpression key,
        System.Linq.Expressions.LambdaExpression selector)
    {
        if (HasConstant(key) || HasConstant(selector))
            return Querying.GroupByTranslator.TryTranslate(collection, key, selector, Translator);
        var cache = _store.GroupByTranslations;
        var shape = (source, selector.ReturnType, $"{collection}\n{key.ReturnType.AssemblyQualifiedName}\n{key}", selector.ToString());
        if (cache.TryGetValue(shape, out var known))
            return known;
        var translation = Querying.GroupByTranslator.TryTranslate(collection, key, selector, Translator);
        if (cache.Count >= MaxGroupByShapes)
            cache.Clear(); // a bound, not a policy: shapes past it are translated again
        cache[shape] = translation;
        return translation;
    }

    private const int MaxGroupByShapes = 1024;

    /// <summary>
    /// The key and selector of a GroupBy grouped in the client, compiled once per store and shape when neither lambda
    /// holds a constant (as <see cref="TranslateGroupBy"/> caches translations).
    /// </summary>
    internal (Delegate Key, Delegate Selector) CompileGrouping(System.Linq.Expressions.LambdaExpression key, System.Linq.Expressions.LambdaExpression selector)
    {
        if (HasConstant(key) || HasConstant(selector))
            return (key.Compile(), selector.Compile());
        var cache = _store.GroupingDelegates;
        var shape = (key.Parameters[0].Type, selector.ReturnType, $"{key.ReturnType.AssemblyQualifiedName}\n{key}", selector.ToString());
        if (cache.TryGetValue(shape, out var known))
            return known;
        var compiled = (key.Compile(), selector.Compile());
        if (cache.Count >= MaxGroupByShapes)
            cache.Clear(); // a bound, not a policy: shapes past it are compiled again
        cache[shape] = compiled;
        return compiled;
    }

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

    private async Task DeployAsync(string indexName, string definitionJson, CancellationToken cancellationToken)
    {
        await Backend.PutIndexAsync(indexName, definitionJson, cancellationToken).ConfigureAwait(false);
        _store.AutoReduceIndexes[indexName] = true;
    }

    private async Task<List<StoredDocument>> ReadAllAsync(string indexName, TimeSpan? timeout, CancellationToken cancellationToken)
    {
        var results = new List<StoredDocument>();
        string? continuation = null;
        while (true)
        {
            var page = await Backend.QueryAsync(indexName, ReducePage(timeout, continuation), cancellationToken).ConfigureAwait(false);
            results.AddRange(page.Results);
            continuation = page.Continuation;
            if (continuation is null || page.Results.Count == 0)
                return results;
        }
    }

    private static IndexQuery ReducePage(TimeSpan? timeout, string? continuation) => new()
    {
        Query = "",
        PageSize = 1024,
        WaitForNonStaleResults = true,
        Timeout = timeout,
        Continuation = continuation,
    };

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
