using System.Runtime.CompilerServices;
using RavenLite.Database;
using RavenLite.Server.Hosting;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Cli;

/// <summary>Export and import on a database folder opened directly (no server may have it open).</summary>
internal sealed class EmbeddedEndpoint : IDocumentSource, IDocumentTarget, IDisposable
{
    private readonly DocumentDatabase _database;

    /// <param name="dataDirectory">The database folder.</param>
    /// <param name="engine">Its storage engine.</param>
    /// <param name="connectionString">The PostgreSQL connection string, for that engine.</param>
    /// <param name="deferIndexing">
    /// For an import: the indexes catch up when the database is next opened (<see cref="DocumentDatabaseOptions.DeferIndexing"/>).
    /// </param>
    public EmbeddedEndpoint(string dataDirectory, StorageEngineKind engine, string? connectionString, bool deferIndexing)
    {
        var directory = Path.GetFullPath(dataDirectory);
        try
        {
            _database = new DocumentDatabase(new DocumentDatabaseOptions
            {
                DataDirectory = directory, Engine = engine, ConnectionString = connectionString, DeferIndexing = deferIndexing,
            });
        }
        catch (Exception ex) when (DatabaseOpenFailure.Is(ex))
        {
            throw new TransferException($"Cannot open the database in {directory}: {ex.Message}", ex);
        }
    }

    public long? Total => _database.GetStatistics().Documents;

    public async IAsyncEnumerable<IReadOnlyList<TransferDocument>> ReadAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        long after = 0;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            // The etag feed: oldest first, one read transaction per batch, without filling the cache with a one-off pass.
            var page = _database.GetDocumentsAfterEtag(after, TransferOptions.BatchSize, addToCache: false);
            if (page.Count == 0)
                yield break;
            after = page[^1].Etag;
            yield return [.. page.Select(d => new TransferDocument(d.Key, d.MetadataJson, d.DataJson))];
            await Task.Yield();
        }
    }

    public Task WriteAsync(IReadOnlyList<TransferDocument> batch, CancellationToken cancellationToken)
    {
        var commands = batch.Select(d => BatchCommand.Put(d.Key, d.Content!.Value.Data, d.Content.Value.Metadata)).ToList();
        // One write transaction per batch: all of it or, when a command is refused (ArgumentException naming it), none.
        _database.Batch(commands);
        return Task.CompletedTask;
    }

    public void Dispose() => _database.Dispose();
}
