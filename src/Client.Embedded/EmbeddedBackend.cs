using RavenLite.Client.Backend;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Client;

/// <summary>
/// Sessions over a <see cref="DocumentDatabase"/> in this process: documents are handed over as the cache's UTF-8
/// JSON (shared, never copied), writes go to BSON straight from the serialized JSON (a bulk insert's straight from the entity).
/// </summary>
internal sealed class EmbeddedBackend(DocumentDatabase database, bool ownsDatabase) : IStoreBackend
{
    public DocumentDatabase Database { get; } = database;

    public IReadOnlyList<StoredDocument?> Load(IReadOnlyList<string> keys)
    {
        var documents = Database.Get(keys);
        var result = new StoredDocument?[documents.Count];
        for (var i = 0; i < result.Length; i++)
            result[i] = documents[i] is { } document ? ToStored(document) : null;
        return result;
    }

    public LoadResult Load(IReadOnlyList<string> keys, IReadOnlyList<string> includePaths)
    {
        var read = Database.GetWithIncludes(keys, includePaths);
        var results = new StoredDocument?[read.Results.Count];
        for (var i = 0; i < results.Length; i++)
            results[i] = read.Results[i] is { } document ? ToStored(document) : null;
        return new LoadResult(results, [.. read.Includes.Select(ToStored)]);
    }

    public Task<SetOperationStatus> StartSetOperationAsync(SetOperationRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        var options = new SetOperationOptions { AllowStale = request.AllowStale, StopOnFailure = request.StopOnFailure };
        var operation = request.PatchJson is { } patch
            ? Database.PatchByQuery(request.IndexName, request.Query, DocumentPatch.Parse(patch), options)
            : Database.DeleteByQuery(request.IndexName, request.Query, options);
        return Task.FromResult(operation.Status);
    }

    public Task<SetOperationStatus?> GetOperationAsync(long id, CancellationToken cancellationToken) =>
        Task.FromResult(Database.GetOperation(id)?.Status);

    public Task<SetOperationStatus?> CancelOperationAsync(long id, CancellationToken cancellationToken)
    {
        var operation = Database.GetOperation(id);
        operation?.Cancel();
        return Task.FromResult(operation?.Status);
    }

    public Task<SetOperationStatus> WaitForOperationAsync(long id, CancellationToken cancellationToken) =>
        Database.GetOperation(id) is { } operation
            ? operation.WaitAsync(cancellationToken: cancellationToken)
            : throw new KeyNotFoundException($"The database does not know set operation {id}.");

    public IReadOnlyList<long?> Batch(IReadOnlyList<WriteCommand> commands)
    {
        var batch = new BatchCommand[commands.Count];
        // A bulk insert hands the same metadata bytes for every entity of a type: encoded once (the content is immutable).
        (byte[]? Json, DocumentContent? Content) metadata = default;
        for (var i = 0; i < batch.Length; i++)
        {
            var command = commands[i];
            if (!command.IsDelete && !command.IsPatch && !ReferenceEquals(command.Metadata, metadata.Json))
                metadata = (command.Metadata, DocumentContent.FromJson(command.Metadata!));
            batch[i] = command.IsDelete
                ? BatchCommand.Delete(command.Key, command.ExpectedEtag)
                : command.PatchJson is { } patch
                ? BatchCommand.Patch(command.Key, DocumentPatch.Parse(patch), command.ExpectedEtag)
                : BatchCommand.Put(command.Key, DataOf(command), metadata.Content, command.ExpectedEtag);
        }
        var results = Database.Batch(batch);
        var etags = new long?[results.Count];
        for (var i = 0; i < etags.Length; i++)
            etags[i] = results[i].Etag;
        return etags;
    }

    private static DocumentContent DataOf(WriteCommand command) => command.EncodedData switch
    {
        null => DocumentContent.FromJson(command.Data),
        DocumentContent content => content,
        var other => throw new ArgumentException($"The put of '{command.Key}' carries {other.GetType()}, not the embedded backend's encoding.", nameof(command)),
    };

    /// <summary>Bulk-inserted entities go straight to BSON (<see cref="DocumentContentWriter"/>), with no JSON text between.</summary>
    public DocumentEncoder CreateDocumentEncoder() => new ContentEncoder();

    public QueryPage Query(string indexName, IndexQuery query) => ToPage(Database.Query(indexName, query));

    public QueryPage Query(string indexName, IndexQuery query, QueryShape shape) => Shaped(Database.Query(indexName, query, shape.IncludePaths), shape);

    private QueryPage ToPage(QueryResult result)
    {
        var documents = new StoredDocument[result.Results.Count];
        for (var i = 0; i < documents.Length; i++)
            documents[i] = ToStored(result.Results[i]);
        return new QueryPage(result.IndexName, documents, result.TotalResults, result.SkippedResults, result.IsStale,
            result.IndexEtag, result.IndexTimestamp, result.PageSize, result.Continuation)
        {
            Aggregate = result.Aggregate,
            Scores = result.Scores,
            Highlights = result.Highlights,
            Facets = result.Facets,
        };
    }

    public QueryPage? MoreLikeThis(string indexName, string documentId, MoreLikeThisQuery query) =>
        Database.MoreLikeThis(indexName, documentId, query) is { } result ? ToPage(result) : null;

    public bool PutIndex(string name, string definitionJson)
    {
        var definition = RavenLite.Indexing.Definitions.IndexDefinition.FromJson(definitionJson);
        if (!string.Equals(definition.Name, name, StringComparison.OrdinalIgnoreCase))
            throw new ArgumentException($"The definition is named '{definition.Name}', not '{name}'.", nameof(definitionJson));
        return Database.PutIndex(definition);
    }

    // Storage is synchronous and in-process: the async forms do the work on the caller's thread.
    public Task<IReadOnlyList<StoredDocument?>> LoadAsync(IReadOnlyList<string> keys, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return Task.FromResult(Load(keys));
    }

    public Task<IReadOnlyList<long?>> BatchAsync(IReadOnlyList<WriteCommand> commands, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return Task.FromResult(Batch(commands));
    }

    /// <summary>Each whole batch is one <see cref="DocumentDatabase.Batch"/>: one write transaction.</summary>
    public Task<long> BulkInsertAsync(IAsyncEnumerable<WriteCommand> puts, int batchSize, Action<long>? written, CancellationToken cancellationToken) =>
        BulkBatches.WriteAsync(puts, batchSize, written, batch =>
        {
            Batch(batch);
            return Task.CompletedTask;
        }, cancellationToken);

    /// <summary>A wait for non-stale results is awaited without holding the thread, as the server does.</summary>
    public async Task<QueryPage> QueryAsync(string indexName, IndexQuery query, CancellationToken cancellationToken) =>
        ToPage(await Database.QueryAsync(indexName, query, cancellationToken).ConfigureAwait(false));

    /// <inheritdoc cref="QueryAsync(string, IndexQuery, CancellationToken)"/>
    public async Task<QueryPage> QueryAsync(string indexName, IndexQuery query, QueryShape shape, CancellationToken cancellationToken)
    {
        var prepared = await Database.PrepareQueryAsync(indexName, query, cancellationToken).ConfigureAwait(false);
        return Shaped(Database.RunQuery(prepared, shape.IncludePaths, cancellationToken), shape);
    }

    /// <summary>
    /// The page with its includes (read with it, through the document cache) and, with fetch paths, each result's
    /// fields copied from the cached UTF-8 JSON by <see cref="FieldProjection"/>.
    /// </summary>
    private QueryPage Shaped(QueryResult result, QueryShape shape)
    {
        if (shape.IsEmpty)
            return ToPage(result);
        var includes = result.Includes;
        if (shape.FetchPaths.Count == 0)
            return ToPage(result) with { Includes = [.. includes.Select(ToStored)] };
        var projection = FieldProjection.Parse(shape.FetchPaths);
        return new QueryPage(result.IndexName, [], result.TotalResults, result.SkippedResults, result.IsStale,
            result.IndexEtag, result.IndexTimestamp, result.PageSize, result.Continuation)
        {
            Includes = [.. includes.Select(ToStored)],
            Projections = [.. result.Results.Select(document => (ReadOnlyMemory<byte>)projection.Project(document.DataJson.Span))],
        };
    }

    public Task<DocumentPage> GetDocumentsAsync(int start, int pageSize, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var total = Database.GetStatistics().Documents;
        var documents = Database.GetDocuments(start, pageSize);
        var results = new StoredDocument[documents.Count];
        for (var i = 0; i < results.Length; i++)
            results[i] = ToStored(documents[i]);
        return Task.FromResult(new DocumentPage(results, pageSize, total));
    }

    /// <summary>The database folder (the store's metrics tag).</summary>
    public override string ToString() => Database.Options.DataDirectory;

    public async IAsyncEnumerable<DatabaseChange> Changes(long fromEtag, ChangesFilter filter,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var change in Database.Changes(fromEtag, cancellationToken).ConfigureAwait(false))
        {
            if (filter.Matches(change))
                yield return change;
        }
    }

    /// <summary>
    /// The version as a session reads it: one instance per cached version, kept with the document, so the entity a
    /// typed session materializes from it is found with the document on the next read (see <see cref="StoredDocument"/>).
    /// </summary>
    private StoredDocument ToStored(Document document) => document.Derive(this, s_toStored, EstimatedViewBytes(document));

    private static readonly Func<Document, StoredDocument> s_toStored = document =>
        new StoredDocument(document.Key, document.Etag, document.DataJson, document.MetadataJson);

    /// <summary>
    /// What the view keeps alive, charged to the document cache: itself, and the entity a session keeps on it, estimated
    /// as the entity cache estimates one (twice its JSON, plus 64 bytes).
    /// </summary>
    private static long EstimatedViewBytes(Document document) => 96 + 2L * document.DataJson.Length + 64;

    public void Dispose()
    {
        if (ownsDatabase)
            Database.Dispose();
    }
}
