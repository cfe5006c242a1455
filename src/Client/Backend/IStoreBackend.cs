namespace RavenLite.Client.Backend;

/// <summary>
/// What a session needs from where the documents live: the embedded database or a server. Each call is one
/// round trip; both raise the same exception types (<see cref="ConcurrencyException"/>,
/// <see cref="QueryException"/>, <see cref="IndexNotFoundException"/>, <see cref="TimeoutException"/>,
/// <see cref="ArgumentException"/>).
/// </summary>
public interface IStoreBackend : IDisposable
{
    /// <summary>Loads documents by key in one round trip; null where there is none.</summary>
    IReadOnlyList<StoredDocument?> Load(IReadOnlyList<string> keys);

    /// <summary>
    /// As <see cref="Load(IReadOnlyList{string})"/>, plus the documents the results refer to at <paramref name="includePaths"/> (paths as in index
    /// definitions: <c>CustomerId</c>, <c>Lines[].ProductId</c>), in the same round trip. A backend without includes
    /// returns none, and the session loads them when asked.
    /// </summary>
    LoadResult Load(IReadOnlyList<string> keys, IReadOnlyList<string> includePaths) => new(Load(keys), []);

    /// <summary>Applies the commands atomically; returns the etag each one wrote (null for a delete of nothing).</summary>
    IReadOnlyList<long?> Batch(IReadOnlyList<WriteCommand> commands);

    /// <summary>Runs one page of a query.</summary>
    QueryPage Query(string indexName, IndexQuery query);

    /// <summary>
    /// As <see cref="Query(string, IndexQuery)"/>, with the documents the results refer to and/or only some fields of each
    /// result (<paramref name="shape"/>), in the same round trip. A backend without them throws <see cref="NotSupportedException"/>.
    /// </summary>
    QueryPage Query(string indexName, IndexQuery query, QueryShape shape) =>
        shape.IsEmpty ? Query(indexName, query) : throw new NotSupportedException($"{GetType().Name} has no query includes or projections.");

    /// <summary>As <see cref="Query(string, IndexQuery, QueryShape)"/>, without blocking on the network.</summary>
    Task<QueryPage> QueryAsync(string indexName, IndexQuery query, QueryShape shape, CancellationToken cancellationToken) =>
        shape.IsEmpty ? QueryAsync(indexName, query, cancellationToken) : throw new NotSupportedException($"{GetType().Name} has no query includes or projections.");

    /// <summary>
    /// The documents of index <paramref name="indexName"/> most like <paramref name="documentId"/>, most similar first,
    /// without it (<see cref="QueryPage.Scores"/> set); null when there is no such document. A backend without it
    /// throws <see cref="NotSupportedException"/>.
    /// </summary>
    QueryPage? MoreLikeThis(string indexName, string documentId, MoreLikeThisQuery query) =>
        throw new NotSupportedException($"{GetType().Name} has no more like this.");

    /// <summary>As <see cref="Load(IReadOnlyList{string})"/>, without blocking on the network (the embedded database does its work synchronously).</summary>
    Task<IReadOnlyList<StoredDocument?>> LoadAsync(IReadOnlyList<string> keys, CancellationToken cancellationToken);

    /// <summary>As <see cref="Batch"/>, without blocking on the network.</summary>
    Task<IReadOnlyList<long?>> BatchAsync(IReadOnlyList<WriteCommand> commands, CancellationToken cancellationToken);

    /// <summary>As <see cref="Query(string, IndexQuery)"/>, without blocking on the network.</summary>
    Task<QueryPage> QueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken);

    /// <summary>
    /// A page of all documents, newest first: skips <paramref name="start"/> and returns up to <paramref name="pageSize"/>
    /// (0: only the total), with how many there are. For tools that move documents as JSON (<c>ravenlite export</c>).
    /// </summary>
    Task<DocumentPage> GetDocumentsAsync(int start, int pageSize, CancellationToken cancellationToken);

    /// <summary>
    /// The changes feed after <paramref name="fromEtag"/> that passes <paramref name="filter"/>: history, then live, each
    /// document change once in etag order. A backend without one throws <see cref="NotSupportedException"/>.
    /// </summary>
    IAsyncEnumerable<DatabaseChange> Changes(long fromEtag, ChangesFilter filter, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no changes feed.");

    /// <summary>
    /// Writes <paramref name="puts"/> in batches of <paramref name="batchSize"/>, each batch in one transaction, and
    /// returns how many were written. <paramref name="written"/> hears the running total after each batch. When the
    /// enumeration throws (a bad entity, cancellation) the batch being gathered is not written; earlier batches stay.
    /// </summary>
    Task<long> BulkInsertAsync(IAsyncEnumerable<WriteCommand> puts, int batchSize, Action<long>? written, CancellationToken cancellationToken);

    /// <summary>
    /// The encoder a bulk insert serializes entities with, for a backend that stores another form than UTF-8 JSON;
    /// null (the default): the puts carry UTF-8 JSON.
    /// </summary>
    DocumentEncoder? CreateDocumentEncoder() => null;

    /// <summary>
    /// Creates or replaces the index <paramref name="name"/> from its JSON definition (what <c>PUT /indexes/{name}</c>
    /// takes); true when it was created or changed, false when the same definition was already there.
    /// </summary>
    /// <exception cref="ArgumentException">The definition is not valid.</exception>
    bool PutIndex(string name, string definitionJson) => throw new NotSupportedException($"{GetType().Name} cannot create indexes.");

    /// <inheritdoc cref="PutIndex"/>
    /// <param name="name">The index's name.</param>
    /// <param name="definitionJson">Its JSON definition.</param>
    /// <param name="cancellationToken">Cancels the wait for the server.</param>
    /// <remarks>By default <see cref="PutIndex"/>, for backends whose storage is synchronous anyway.</remarks>
    Task<bool> PutIndexAsync(string name, string definitionJson, CancellationToken cancellationToken) => Task.FromResult(PutIndex(name, definitionJson));

    /// <summary>
    /// Starts a set operation on the documents <paramref name="request"/>'s query matches (a patch by query, or a delete
    /// by query when it has no patch) and returns its first status at once.
    /// </summary>
    /// <exception cref="IndexStaleException">The index is stale and the request does not allow it; nothing was changed.</exception>
    Task<SetOperationStatus> StartSetOperationAsync(SetOperationRequest request, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no set operations.");

    /// <summary>The status of set operation <paramref name="id"/>; null when the database does not know it.</summary>
    Task<SetOperationStatus?> GetOperationAsync(long id, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no set operations.");

    /// <summary>Asks set operation <paramref name="id"/> to stop before its next batch; its status, or null when unknown.</summary>
    Task<SetOperationStatus?> CancelOperationAsync(long id, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no set operations.");

    /// <summary>
    /// Waits until set operation <paramref name="id"/> has finished and returns its final status (a remote backend asks
    /// the server every so often; the embedded database is told).
    /// </summary>
    /// <exception cref="KeyNotFoundException">The database does not know the operation.</exception>
    async Task<SetOperationStatus> WaitForOperationAsync(long id, CancellationToken cancellationToken)
    {
        var delay = TimeSpan.FromMilliseconds(50);
        while (true)
        {
            var status = await GetOperationAsync(id, cancellationToken).ConfigureAwait(false)
                ?? throw new KeyNotFoundException($"The database does not know set operation {id}.");
            if (status.State != SetOperationState.Running)
                return status;
            await Task.Delay(delay, cancellationToken).ConfigureAwait(false);
            delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, TimeSpan.FromSeconds(1).Ticks));
        }
    }
}
