using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    private IndexStore? _indexes;

    /// <summary>
    /// The database's indexes: the built-in <c>Raven/DocumentsByEntityName</c> and the user indexes, kept up to
    /// date by a background indexer. Internal: callers use the index methods of this class.
    /// </summary>
    internal IndexStore Indexes => Volatile.Read(ref _indexes) ?? throw new ObjectDisposedException(nameof(DocumentDatabase));

    /// <inheritdoc cref="IndexStore.Query(string, IndexQuery)"/>
    /// <remarks>
    /// Documents whose expiry time has passed are left out of the page (counted in <see cref="QueryResult.SkippedResults"/>,
    /// and in <see cref="QueryResult.TotalResults"/> until the expiry task deletes them).
    /// </remarks>
    public QueryResult Query(string indexName, IndexQuery query) => Unexpired(Indexes.Query(indexName, query));

    /// <inheritdoc cref="IndexStore.QueryAsync"/>
    /// <remarks>
    /// Documents whose expiry time has passed are left out of the page (counted in <see cref="QueryResult.SkippedResults"/>,
    /// and in <see cref="QueryResult.TotalResults"/> until the expiry task deletes them).
    /// </remarks>
    public async Task<QueryResult> QueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken = default) =>
        RunQuery(await PrepareQueryAsync(indexName, query, cancellationToken).ConfigureAwait(false), includePaths: null, cancellationToken);

    /// <inheritdoc cref="IndexStore.PrepareAsync"/>
    /// <remarks>
    /// For a caller that keeps answers by <see cref="PreparedQuery.Version"/> (a server's response cache): look for a
    /// kept answer when <see cref="PreparedQuery.MayBeKept"/>, and run the query with
    /// <see cref="RunQuery"/> only when there is none. Once a
    /// document that expires has been read, no prepared query may be kept: time passing changes no index version.
    /// </remarks>
    public async Task<PreparedQuery> PrepareQueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken = default)
    {
        var prepared = await Indexes.PrepareAsync(indexName, query, cancellationToken).ConfigureAwait(false);
        return _sawExpiring && prepared.MayBeKept ? prepared.NotKept() : prepared;
    }

    /// <summary>
    /// Runs a prepared query: one search, the page, and with <paramref name="includePaths"/> the documents the page
    /// refers to at them (paths as in index definitions; see <see cref="Included"/>) in <see cref="QueryResult.Includes"/>.
    /// Documents whose expiry time has passed are left out of both, as in <see cref="QueryAsync"/>.
    /// </summary>
    /// <inheritdoc cref="IndexStore.Query(PreparedQuery, CancellationToken)"/>
    /// <exception cref="ArgumentException">A bad include path.</exception>
    public QueryResult RunQuery(PreparedQuery prepared, IReadOnlyList<string>? includePaths = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(prepared);
        CheckIncludePaths(includePaths);
        return WithIncludes(Unexpired(Indexes.Query(prepared, cancellationToken)), includePaths);
    }

    /// <summary>As <see cref="Query(string, IndexQuery)"/>, with the documents the page refers to at <paramref name="includePaths"/> in <see cref="QueryResult.Includes"/>.</summary>
    /// <inheritdoc cref="Query(string, IndexQuery)"/>
    /// <exception cref="ArgumentException">A bad include path.</exception>
    public QueryResult Query(string indexName, IndexQuery query, IReadOnlyList<string> includePaths)
    {
        ArgumentNullException.ThrowIfNull(includePaths);
        CheckIncludePaths(includePaths);
        return WithIncludes(Query(indexName, query), includePaths);
    }

    private static void CheckIncludePaths(IReadOnlyList<string>? includePaths)
    {
        foreach (var path in includePaths ?? [])
            DocumentReferences.Validate(path);
    }

    private QueryResult WithIncludes(QueryResult result, IReadOnlyList<string>? includePaths) =>
        includePaths is { Count: > 0 } ? result with { Includes = Included(result.Results, includePaths) } : result;

    /// <inheritdoc cref="IndexStore.MoreLikeThis"/>
    public QueryResult? MoreLikeThis(string indexName, string documentKey, MoreLikeThisQuery query, CancellationToken cancellationToken = default) =>
        Indexes.MoreLikeThis(indexName, documentKey, query, cancellationToken);

    /// <inheritdoc cref="IndexStore.PutIndex"/>
    public bool PutIndex(IndexDefinition definition) => Indexes.PutIndex(definition);

    /// <inheritdoc cref="IndexStore.GetIndexDefinition"/>
    public IndexDefinition? GetIndex(string name) => Indexes.GetIndexDefinition(name);

    /// <inheritdoc cref="IndexStore.GetIndexDefinitions"/>
    public IReadOnlyList<IndexDefinition> GetIndexes() => Indexes.GetIndexDefinitions();

    /// <inheritdoc cref="IndexStore.DeleteIndex"/>
    public void DeleteIndex(string name) => Indexes.DeleteIndex(name);

    /// <inheritdoc cref="IndexStore.ResetIndex"/>
    public void ResetIndex(string name) => Indexes.ResetIndex(name);

    /// <summary>Every index's statistics: documents, last indexed etag, staleness, errors.</summary>
    public IReadOnlyList<IndexStatistics> GetIndexStatistics() => Indexes.GetStatistics();

    /// <inheritdoc cref="IndexStore.GetStatistics(string)"/>
    public IndexStatistics GetIndexStatistics(string name) => Indexes.GetStatistics(name);

    /// <inheritdoc cref="IndexStore.WaitForNonStaleAsync"/>
    public Task WaitForNonStaleAsync(string indexName, TimeSpan? timeout = null, CancellationToken cancellationToken = default) =>
        Indexes.WaitForNonStaleAsync(indexName, timeout, cancellationToken);

    /// <summary>Called last by the constructor: opens the indexes and starts the indexer, or closes the store and throws.</summary>
    private void StartIndexing()
    {
        try
        {
            _indexes = IndexStore.Open(Documents, Options.ToIndexingOptions());
        }
        catch
        {
            Documents.Dispose();
            throw;
        }
    }

    /// <summary>Called first by <see cref="Dispose"/>: stops the indexer and closes the indexes, before the store closes.</summary>
    private void StopIndexing() => Interlocked.Exchange(ref _indexes, null)?.Dispose();
}
