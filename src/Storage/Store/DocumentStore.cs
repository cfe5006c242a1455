using System.Diagnostics.Metrics;
using System.Text;
using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Documents kept as BSON in a storage engine: put, get, delete, atomic batches with optimistic
/// concurrency, an etag-ordered feed, tombstones, paging and maintained counts. Every read goes through
/// a cache of parsed documents keyed by (key, etag), unless <see cref="StorageOptions.CacheEnabled"/> is off.
/// Thread-safe.
/// </summary>
internal sealed partial class DocumentStore : IDisposable, IIndexedDocuments
{
    internal const string LastEtagName = "last-etag";
    internal const string DocumentCountName = "documents";
    internal const string TombstonesPurgedToName = "tombstones-purged-to";
    /// <remarks>2: <see cref="ReplacedTable"/> records what every write replaced; a store of version 1 is moved to 2 when opened.</remarks>
    private const int SchemaVersion = 2;
    private readonly DataDirectoryLock _lock;
    private readonly DocumentCache? _cache;
    private readonly TimeProvider _time;
    private int _disposed;

    private DocumentStore(DataDirectoryLock directoryLock, IStorageEngine engine, DocumentCache? cache, Meter meter, string databaseName,
        TimeProvider time)
    {
        _lock = directoryLock;
        _time = time;
        Engine = engine;
        _cache = cache;
        Meter = meter;
        DatabaseName = databaseName;
        DocumentsTable = engine.OpenTable("documents");
        ByEtagTable = engine.OpenTable("documents-by-etag");
        TombstonesTable = engine.OpenTable("tombstones");
        ReplacedTable = engine.OpenTable("replaced-versions");
        StateTable = engine.OpenTable("state");
        EntityCountsTable = engine.OpenTable("entity-counts");
        IndexDefinitionsTable = engine.OpenTable("index-definitions");
        CheckSchema();
        if (engine is ISharedStorageEngine shared)
            shared.CommittedElsewhere += OnCommittedElsewhere;
    }

    /// <summary>Folded key -> <see cref="DocumentRecord"/>.</summary>
    internal StorageTable DocumentsTable { get; }

    /// <summary>Big-endian etag -> folded key of the document version holding it.</summary>
    internal StorageTable ByEtagTable { get; }

    /// <summary>Big-endian etag of a deletion -> the deleted key (UTF-8, original casing).</summary>
    internal StorageTable TombstonesTable { get; }

    /// <summary>
    /// Big-endian etag of a write that replaced or deleted a version -> big-endian etag of that version: the version an
    /// index that has not seen the write may hold, which it deletes by etag. Purged with the tombstones.
    /// </summary>
    internal StorageTable ReplacedTable { get; }

    /// <summary>Small named values: last etag, document count, schema version.</summary>
    internal StorageTable StateTable { get; }

    /// <summary>Entity name (UTF-8) -> document count.</summary>
    internal StorageTable EntityCountsTable { get; }

    /// <summary>Index folder name (UTF-8) -> definition JSON: kept beside the documents, outside the index folders.</summary>
    internal StorageTable IndexDefinitionsTable { get; }

    /// <summary>The engine underneath, for components that keep their own tables beside the documents.</summary>
    internal IStorageEngine Engine { get; }

    /// <summary>
    /// Opens (creating when missing) the store in <see cref="StorageOptions.DataDirectory"/>.
    /// </summary>
    /// <exception cref="IOException">Another process or store has the folder open.</exception>
    /// <exception cref="PlatformNotSupportedException">ESENT was asked for off Windows.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range, such as a cache size of zero or
    /// more than the machine's memory.</exception>
    public static DocumentStore Open(StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var fullPath = Path.GetFullPath(options.DataDirectory);
        var directoryLock = DataDirectoryLock.Acquire(fullPath);
        IStorageEngine? engine = null;
        DocumentCache? cache = null;
        var meter = new Meter(CacheMetrics.MeterName);
        try
        {
            engine = StorageEngineFactory.Open(options);
            cache = options.CacheEnabled ? new DocumentCache(options.CacheSizeBytes, fullPath, meter) : null;
            return new DocumentStore(directoryLock, engine, cache, meter, fullPath, options.TimeProvider);
        }
        catch
        {
            cache?.Dispose();
            meter.Dispose();
            engine?.Dispose();
            directoryLock.Dispose();
            throw;
        }
    }

    private void CheckSchema()
    {
        using (var tx = Engine.BeginRead())
        {
            var version = StoredValues.ReadInt64(tx, StateTable, "schema-version");
            if (version == SchemaVersion)
                return;
            // Version 1 recorded no replaced versions: indexes made before are rebuilt (their format changed with it),
            // and every replacement from now on is recorded.
            if (version is not (0 or 1))
                throw new StorageCorruptedException(
                    $"The store has schema version {version}; this RavenLite reads version {SchemaVersion}.");
        }
        Engine.Write(tx =>
        {
            StoredValues.WriteInt64(tx, StateTable, "schema-version", SchemaVersion);
            return 0;
        });
    }

    /// <summary>
    /// The database's <c>RavenLite</c> meter: every instrument of this database (the cache's, the queries') is
    /// created on it, and disposing the store withdraws them all.
    /// </summary>
    public Meter Meter { get; }

    /// <summary>The data folder's full path: the value of <see cref="CacheMetrics.DatabaseTag"/>.</summary>
    public string DatabaseName { get; }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);

    /// <summary>Closes the engine and releases the folder. Safe to call more than once.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            if (Engine is ISharedStorageEngine shared)
                shared.CommittedElsewhere -= OnCommittedElsewhere;
            _cache?.Dispose();
            Meter.Dispose();
            Engine.Dispose();
        }
        finally
        {
            _lock.Dispose();
        }
    }

    /// <summary>The maintained counts: documents, last etag, documents per entity name.</summary>
    public DocumentCounts GetCounts()
    {
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        var byEntity = new Dictionary<string, long>(StringComparer.Ordinal);
        using (var cursor = tx.OpenCursor(EntityCountsTable))
        {
            for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
                byEntity[Encoding.UTF8.GetString(cursor.Key)] = System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(cursor.Value);
        }
        return new DocumentCounts(
            StoredValues.ReadInt64(tx, StateTable, DocumentCountName),
            StoredValues.ReadInt64(tx, StateTable, LastEtagName),
            byEntity);
    }

    /// <summary>The document cache's counters: hits, misses, evictions, entries and bytes.</summary>
    public CacheStatistics GetCacheStatistics()
    {
        ThrowIfDisposed();
        return _cache?.GetStatistics() ?? CacheStatistics.Disabled;
    }

    /// <summary>Empties the document cache (the counters keep counting). Reads then deserialize again.</summary>
    public void ClearCache()
    {
        ThrowIfDisposed();
        _cache?.Clear();
    }

    IReadOnlyList<Document?> IIndexedDocuments.GetCurrent(IReadOnlyList<string> keys) => Get(keys);

    IReadOnlyList<KeyValuePair<string, string>> IIndexedDocuments.ReadIndexDefinitions()
    {
        ThrowIfDisposed();
        var definitions = new List<KeyValuePair<string, string>>();
        using var tx = Engine.BeginRead();
        using var cursor = tx.OpenCursor(IndexDefinitionsTable);
        for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
            definitions.Add(new(Encoding.UTF8.GetString(cursor.Key), Encoding.UTF8.GetString(cursor.Value)));
        return definitions;
    }

    void IIndexedDocuments.SaveIndexDefinition(string folderName, string json)
    {
        ThrowIfDisposed();
        Engine.Write(tx =>
        {
            tx.Put(IndexDefinitionsTable, Encoding.UTF8.GetBytes(folderName), Encoding.UTF8.GetBytes(json));
            return 0;
        });
    }

    bool IIndexedDocuments.DeleteIndexDefinition(string folderName)
    {
        ThrowIfDisposed();
        return Engine.Write(tx => tx.Delete(IndexDefinitionsTable, Encoding.UTF8.GetBytes(folderName)));
    }
}
