using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    private IndexStore? _indexes;

    /// <summary>
    /// The database's indexes: the built-in <c>Raven/DocumentsByEntityName</c> and the user indexes, kept up to
    /// date by a background indexer. Internal: callers use the index methods of this class.
    /// </summary>
    internal IndexStore Indexes => Volatile.Read(ref _indexes) ?? throw new ObjectDisposedException(nameof(DocumentDatabase));

    /// <inheritdoc cref="IndexStore.Query"/>
    /// <remarks>
    /// Documents whose expiry time has passed are left out of the page (counted in <see cref="QueryResult.SkippedResults"/>,
    /// and in <see cref="QueryResult.TotalResults"/> until the expiry task deletes them).
    /// </remarks>
    public QueryResult Query(string indexName, IndexQuery query) => Unexpired(Indexes.Query(indexName, query));

    /// <inheritdoc cref="IndexStore.QueryAsync"/>
    /// <remarks>
    /// Documents whose expiry time has passed are left out of the page (counted in <see cref="QueryResult.SkippedResults"/>,
    /// and in <see cref="QueryResult.TotalResults"/> until the expiry task deletes them). Once a document that expires
    /// has been read, <paramref name="answerKnown"/> is no longer asked: time passing changes no index version.
    /// </remarks>
    public async Task<QueryResult> QueryAsync(string indexName, IndexQuery query, Func<string, IndexVersion, bool>? answerKnown = null,
        CancellationToken cancellationToken = default) =>
        Unexpired(await Indexes.QueryAsync(indexName, query, UnlessExpiring(answerKnown), cancellationToken).ConfigureAwait(false));

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
