using RavenLite.Indexing.AutoIndexes;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    private readonly object _autoIndexLock = new();

    /// <summary>
    /// The index that answers a query of <paramref name="indexName"/>, and the query it runs: the query itself for a
    /// named index; for <c>dynamic/{collection}</c> the auto index over the fields it names (made or widened when
    /// missing, see <see cref="AutoIndexes.AutoIndexes"/>), or the built-in index's <c>Tag</c> query when it names none.
    /// </summary>
    private (string IndexName, IndexQuery Query) Resolve(string indexName, IndexQuery query)
    {
        if (!AutoIndexes.AutoIndexes.IsDynamic(indexName))
            return (indexName, query);
        var collection = AutoIndexes.AutoIndexes.Collection(indexName);
        var (fields, searched) = FieldsOf(query);
        if (fields.Count == 0)
        {
            return (BuiltInIndexes.DocumentsByEntityNameName, new IndexQuery
            {
                Query = AutoIndexes.AutoIndexes.CollectionQuery(collection, query.Query),
                Start = query.Start,
                PageSize = query.PageSize,
                SortBy = query.SortBy,
                WaitForNonStaleResults = query.WaitForNonStaleResults,
                Timeout = query.Timeout,
                Continuation = query.Continuation,
                Aggregate = query.Aggregate,
                AggregateSum = query.AggregateSum,
                Facets = query.Facets,
            });
        }
        return (AutoIndexFor(collection, fields, searched), query);
    }

    /// <summary>
    /// The fields a collection query reads, parsed once per distinct query text, sort, aggregate and facet fields: a repeated query
    /// (the usual case: the same LINQ with other values is another text, the same values the same) skips the parse.
    /// </summary>
    private (List<string> Fields, HashSet<string> Searched) FieldsOf(IndexQuery query)
    {
        // Aggregated and faceted fields are fields the auto index needs, as sort fields are.
        var sortBy = query.Aggregate is null && query.Facets is not { Count: > 0 }
            ? query.SortBy
            : [.. query.SortBy ?? [], .. query.Aggregate is { } aggregate ? [aggregate] : Array.Empty<string>(), .. (query.Facets ?? []).Select(facet => facet?.Field ?? "")];
        var key = sortBy is null ? query.Query ?? "" : $"{query.Query}\n{string.Join('\n', sortBy)}";
        if (_queryFields.TryGetValue(key, out var known))
            return (known.Fields, [.. known.Searched]);
        var searched = new HashSet<string>(StringComparer.Ordinal);
        var fields = AutoIndexes.AutoIndexes.FieldsOf(query.Query, sortBy, searched);
        if (_queryFields.Count >= MaxKnownQueries)
            _queryFields.Clear(); // a bound, not a policy: distinct query texts past it are parsed again
        _queryFields[key] = (fields, searched);
        return (fields, [.. searched]);
    }

    private const int MaxKnownQueries = 4096;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, (List<string> Fields, HashSet<string> Searched)> _queryFields = new(StringComparer.Ordinal);

    private string AutoIndexFor(string collection, List<string> fields, HashSet<string> searched)
    {
        var cutoff = _documents.LastEtag;
        var autos = AutoIndexesOf(collection);
        var best = autos.Where(index => AutoIndexes.AutoIndexes.Covers(index.Definition, fields, searched))
            .OrderByDescending(index => IsCaughtUp(index, cutoff))
            .ThenByDescending(index => index.Definition.Fields.Count)
            .FirstOrDefault();
        if (best is not null)
        {
            if (IsCaughtUp(best, cutoff))
                RetireNarrower(autos, best);
            return best.Name;
        }
        lock (_autoIndexLock)
        {
            autos = AutoIndexesOf(collection);
            if (autos.FirstOrDefault(index => AutoIndexes.AutoIndexes.Covers(index.Definition, fields, searched)) is { } made)
                return made.Name; // another query made it meanwhile
            // Widening: the new index keeps the fields (and word searches) of the widest one, so it can replace every narrower one.
            var widest = autos.OrderByDescending(index => index.Definition.Fields.Count).FirstOrDefault()?.Definition.Fields ?? [];
            var wanted = widest.Select(field => field.Name).ToList();
            foreach (var field in widest)
            {
                if (field.Analysis == FieldAnalysis.TypedSearch)
                    searched.Add(field.Name);
            }
            foreach (var field in fields)
            {
                if (!wanted.Contains(field, StringComparer.Ordinal))
                    wanted.Add(field);
            }
            if (wanted.Count > IndexDefinition.MaxFields)
                throw new LimitExceededException(nameof(IndexDefinition.MaxFields),
                    $"An auto index over '{collection}' would need {wanted.Count} fields, more than the {IndexDefinition.MaxFields} an index may have; " +
                    "define an index for these queries and query it by name.");
            // Widening replaces an index of the same collection, so only a collection's first auto index adds to the count.
            if (autos.Count == 0 && CountAutoIndexes() >= _options.MaxAutoIndexes)
                throw new LimitExceededException(nameof(IndexingOptions.MaxAutoIndexes),
                    $"A query of collection '{collection}' needs a new auto index, and the database already has " +
                    $"{_options.MaxAutoIndexes}, the most it keeps; delete unused ones (DELETE /indexes/Auto/...) or define an index and query it by name.");
            var definition = AutoIndexes.AutoIndexes.Define(collection, wanted, searched);
            PutIndex(definition);
            _log($"Auto index '{definition.Name}' created for a query of collection '{collection}' on {string.Join(", ", fields)}.");
            return definition.Name;
        }
    }

    /// <summary>
    /// Refuses a new auto map/reduce index (the one a LINQ <c>GroupBy</c> on a collection asks for by name) once the
    /// database keeps <see cref="IndexingOptions.MaxAutoIndexes"/>: they count as auto indexes do.
    /// </summary>
    private void ThrowIfPastAutoIndexLimit(IndexDefinition definition)
    {
        if (definition.Reduce is null || !definition.Name.StartsWith(AutoIndexes.AutoIndexes.AutoPrefix, StringComparison.OrdinalIgnoreCase))
            return;
        if (CountAutoIndexes() >= _options.MaxAutoIndexes)
            throw new LimitExceededException(nameof(IndexingOptions.MaxAutoIndexes),
                $"A grouped query of collection '{definition.EntityName}' needs a new auto map/reduce index ('{definition.Name}'), and the database already has " +
                $"{_options.MaxAutoIndexes} auto indexes, the most it keeps; delete unused ones (DELETE /indexes/Auto/...) or define a map/reduce index.");
    }

    private int CountAutoIndexes() =>
        Volatile.Read(ref _indexes).Values.Count(index => index.Name.StartsWith(AutoIndexes.AutoIndexes.AutoPrefix, StringComparison.OrdinalIgnoreCase));

    private List<DocumentIndex> AutoIndexesOf(string collection) =>
        [.. Volatile.Read(ref _indexes).Values.Where(index => AutoIndexes.AutoIndexes.IsAutoIndexOf(index.Definition, collection))];

    /// <summary>Deletes the auto indexes whose fields a caught-up wider one has: it answers all their queries.</summary>
    private void RetireNarrower(List<DocumentIndex> autos, DocumentIndex wider)
    {
        foreach (var index in autos)
        {
            var searched = index.Definition.Fields.Where(field => field.Analysis == FieldAnalysis.TypedSearch).Select(field => field.Name).ToHashSet();
            if (ReferenceEquals(index, wider) || index.Definition.Fields.Count > wider.Definition.Fields.Count
                || !AutoIndexes.AutoIndexes.Covers(wider.Definition, [.. index.Definition.Fields.Select(field => field.Name)], searched)
                || index.Definition.Name == wider.Definition.Name)
                continue;
            try
            {
                DeleteIndex(index.Name);
                _log($"Auto index '{index.Name}' deleted: '{wider.Name}' has its fields and has caught up.");
            }
            catch (IndexNotFoundException)
            {
                // Another query retired it first.
            }
        }
    }
}
