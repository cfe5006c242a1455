using Newtonsoft.Json.Linq;
using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

/// <summary>
/// The embedded RavenLite database: open it on a folder, then put, load, delete and page through
/// documents in-process. Thread-safe; dispose it to close the folder.
/// </summary>
/// <example>
/// <code>
/// using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = "./data" });
/// db.Put("carts/1", JObject.Parse("{\"total\": 3}"), new JObject { ["Raven-Entity-Name"] = "Cart" });
/// var cart = db.Get("carts/1");
/// </code>
/// </example>
public sealed partial class DocumentDatabase : IDisposable
{
    private int _disposed;

    /// <summary>Opens (creating when missing) the database in <see cref="DocumentDatabaseOptions.DataDirectory"/>.</summary>
    /// <exception cref="IOException">Another process or database has the folder open.</exception>
    /// <exception cref="PlatformNotSupportedException">ESENT was asked for off Windows.</exception>
    /// <exception cref="ArgumentException">An option is missing or out of range (<see cref="DocumentDatabaseOptions.Validate"/>).</exception>
    public DocumentDatabase(DocumentDatabaseOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        Options = options;
        Documents = DocumentStore.Open(options.ToStorageOptions());
        StartIndexing();
        StartExpiry();
    }

    /// <summary>The options the database was opened with.</summary>
    public DocumentDatabaseOptions Options { get; }

    /// <summary>The storage layer's document store; callers go through this class, which is the one front door.</summary>
    internal DocumentStore Documents { get; }

    /// <inheritdoc cref="DocumentStore.Put(string, DocumentContent, DocumentContent?, long?, CommitMode)"/>
    public PutResult Put(string key, JObject data, JObject? metadata = null, long? expectedEtag = null,
        CommitMode mode = CommitMode.Durable) =>
        Documents.Put(key, data, metadata, expectedEtag, mode);

    /// <inheritdoc cref="DocumentStore.Put(string, DocumentContent, DocumentContent?, long?, CommitMode)"/>
    public PutResult Put(string key, DocumentContent data, DocumentContent? metadata = null, long? expectedEtag = null,
        CommitMode mode = CommitMode.Durable) =>
        Documents.Put(key, data, metadata, expectedEtag, mode);

    /// <inheritdoc cref="DocumentStore.Get(string)"/>
    /// <remarks>A document whose expiry time has passed (<see cref="MetadataNames.Expires"/>) is not returned, deleted yet or not.</remarks>
    public Document? Get(string key) => Unexpired(Documents.Get(key));

    /// <inheritdoc cref="DocumentStore.Get(IReadOnlyList{string})"/>
    /// <remarks>A document whose expiry time has passed (<see cref="MetadataNames.Expires"/>) is null, deleted yet or not.</remarks>
    public IReadOnlyList<Document?> Get(IReadOnlyList<string> keys) => Unexpired(Documents.Get(keys));

    /// <inheritdoc cref="DocumentStore.GetRaw"/>
    /// <remarks>A document whose expiry time has passed (<see cref="MetadataNames.Expires"/>) is not returned, deleted yet or not.</remarks>
    public RawDocument? GetRaw(string key) =>
        Documents.GetRaw(key) is { } raw && !(ExpiryTime.Of(raw) is { } at && at <= Options.TimeProvider.GetUtcNow()) ? raw : null;

    /// <inheritdoc cref="DocumentStore.Delete"/>
    public bool Delete(string key, long? expectedEtag = null, CommitMode mode = CommitMode.Durable) =>
        Documents.Delete(key, expectedEtag, mode);

    /// <inheritdoc cref="DocumentStore.Batch"/>
    public IReadOnlyList<BatchResult> Batch(IReadOnlyList<BatchCommand> commands, CommitMode mode = CommitMode.Durable) =>
        Documents.Batch(commands, mode);

    /// <summary>
    /// Applies <paramref name="patch"/> to the current version of <paramref name="key"/> inside one write transaction
    /// (read, apply, write, with no other write in between), keeping its metadata.
    /// </summary>
    /// <param name="key">The document.</param>
    /// <param name="patch">The operations; all apply or none does.</param>
    /// <param name="expectedEtag">Null: no check. Otherwise the document's current etag must match.</param>
    /// <param name="mode">How the commit reaches the disk: durable (the default), pipelined or lazy (<see cref="CommitMode"/>).</param>
    /// <returns>The new version's etag; null when there is no such document (nothing was written).</returns>
    /// <exception cref="PatchException">A <c>test</c> failed or a path does not fit the document; nothing was written.</exception>
    /// <exception cref="ConcurrencyException">The etag did not match; nothing was written.</exception>
    public long? Patch(string key, DocumentPatch patch, long? expectedEtag = null, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(patch);
        return Documents.Patch(key, patch, expectedEtag, mode);
    }

    /// <inheritdoc cref="DocumentStore.GetDocuments"/>
    /// <remarks>Documents whose expiry time has passed are left out of the page, deleted yet or not.</remarks>
    public IReadOnlyList<Document> GetDocuments(int start, int pageSize) => UnexpiredOnly(Documents.GetDocuments(start, pageSize));

    /// <summary>
    /// Document counts (total and per entity name) and the last etag, maintained by every write, and the
    /// document cache's counters.
    /// </summary>
    public DatabaseStatistics GetStatistics()
    {
        var counts = Documents.GetCounts();
        return new DatabaseStatistics(counts.Documents, counts.LastEtag, counts.ByEntityName, Documents.GetCacheStatistics());
    }

    /// <inheritdoc cref="DocumentStore.GetReplicationStatus"/>
    public ReplicationStatus? GetReplicationStatus() => Documents.GetReplicationStatus();

    /// <inheritdoc cref="DocumentStore.ClearCache"/>
    public void ClearCache() => Documents.ClearCache();

    /// <summary>Closes the database and releases its folder. Safe to call more than once.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            StopExpiry();
            StopOperations();
            StopChanges();
            StopIndexing();
        }
        finally
        {
            Documents.Dispose();
        }
    }
}
