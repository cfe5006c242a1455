using System.Text;

namespace RavenLite.Storage.Documents;

internal sealed partial class DocumentStore
{
    private long _lastEtag = -1;

    /// <summary>The highest etag this store has seen committed (-1 before it has read one): no new etag may be at or below it.</summary>
    internal long SeenLastEtag => Volatile.Read(ref _lastEtag);

    /// <summary>
    /// Raised after every committed put, delete or batch, on the writing thread, with the last etag it
    /// gave out; with an engine other servers write too, also when their commits become known (on the engine's
    /// listener thread, or on the thread that called <see cref="ReadLastEtag"/>). Handlers must be quick (wake a worker); an exception from one is not the writer's problem
    /// and is swallowed.
    /// </summary>
    public event Action<long>? DocumentsChanged;

    /// <summary>The last etag given out by a committed write (0 for a new store). Cheap: kept in memory.</summary>
    public long LastEtag
    {
        get
        {
            var etag = Volatile.Read(ref _lastEtag);
            if (etag >= 0)
                return etag;
            // First use: read it once from the state table; writes keep it current from then on.
            using var tx = Engine.BeginRead();
            var stored = StoredValues.ReadInt64(tx, StateTable, LastEtagName);
            Interlocked.CompareExchange(ref _lastEtag, stored, -1);
            return Volatile.Read(ref _lastEtag);
        }
    }

    /// <summary>
    /// The last etag committed, read from storage: with an engine that other servers write too (PostgreSQL), this
    /// includes their commits, which <see cref="LastEtag"/> learns only when their notification arrives. Costs a read
    /// transaction; for waits that must cover every write acknowledged anywhere before they began.
    /// </summary>
    public long ReadLastEtag()
    {
        ThrowIfDisposed();
        using (var tx = Engine.BeginRead())
            Advance(StoredValues.ReadInt64(tx, StateTable, LastEtagName));
        return LastEtag;
    }

    /// <summary>
    /// Raised, with an engine other servers write too, when one of them committed (or now and then, as the engine
    /// polls), after <see cref="LastEtag"/> caught up: for what a server keeps beside the documents, such as index
    /// definitions, to be read again. On the engine's listener thread; handlers must be quick or hand off.
    /// </summary>
    public event Action? CommittedElsewhere;

    /// <summary>Another server committed (or the engine polled): catch up with the stored last etag.</summary>
    private void OnCommittedElsewhere()
    {
        if (Volatile.Read(ref _disposed) != 0)
            return;
        try
        {
            ReadLastEtag();
            CommittedElsewhere?.Invoke();
        }
#pragma warning disable CA1031 // a background wake-up; the next one (the engine polls) retries
        catch (Exception)
#pragma warning restore CA1031
        {
        }
    }

    private void PublishCommit(BatchResult[] results)
    {
        long newest = 0;
        foreach (var result in results)
            newest = Math.Max(newest, result.Etag ?? 0);
        if (newest == 0)
            return; // nothing written (deletes of missing documents)
        Advance(newest);
    }

    /// <summary>Moves <see cref="LastEtag"/> up to <paramref name="newest"/> and, when it moved, tells the listeners.</summary>
    private void Advance(long newest)
    {
        for (var seen = Volatile.Read(ref _lastEtag); seen < newest; seen = Volatile.Read(ref _lastEtag))
        {
            if (Interlocked.CompareExchange(ref _lastEtag, newest, seen) != seen)
                continue;
            try
            {
                DocumentsChanged?.Invoke(newest);
            }
#pragma warning disable CA1031 // a listener's failure must not turn a committed write into an error
            catch (Exception)
#pragma warning restore CA1031
            {
            }
            return;
        }
    }

    /// <summary>
    /// Documents whose current version has an etag greater than <paramref name="etag"/>, in etag order,
    /// at most <paramref name="maxCount"/>, read in one transaction (for indexers and change feeds).
    /// </summary>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount) => GetDocumentsAfterEtag(etag, maxCount, addToCache: true);

    /// <summary>
    /// As <see cref="GetDocumentsAfterEtag(long, int)"/>; with <paramref name="addToCache"/> false, documents already
    /// cached are served from the cache but the others are not added to it. For one-pass readers such as indexers,
    /// so a pass over every document neither evicts what readers use nor fills the heap with what nobody reads again.
    /// </summary>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount, bool addToCache) =>
        GetDocumentsAfterEtag(etag, maxCount, addToCache, unreadable: null);

    /// <summary>
    /// As <see cref="GetDocumentsAfterEtag(long, int, bool)"/>, except that a stored version that cannot be read (its
    /// stored bytes are damaged) does not stop the feed: <paramref name="unreadable"/> is given its storage key (the
    /// key as stored, lower-cased), its etag and the error, it counts toward <paramref name="maxCount"/>, and the feed
    /// goes on past it. For indexers, which must never stall on one document. With a null callback the error is thrown.
    /// </summary>
    public IReadOnlyList<Document> GetDocumentsAfterEtag(long etag, int maxCount, bool addToCache, Action<string, long, Exception>? unreadable) =>
        ReadAfterEtag(etag, maxCount, unreadable, (IReadTransaction tx, ReadOnlySpan<byte> storageKey, out Document document) =>
            (document = Load(tx, storageKey, addToCache)!) is not null);

    /// <inheritdoc cref="IIndexedDocuments.GetHeadersAfterEtag"/>
    public IReadOnlyList<DocumentHeader> GetHeadersAfterEtag(long etag, int maxCount, Action<string, long, Exception>? unreadable) =>
        ReadAfterEtag<DocumentHeader>(etag, maxCount, unreadable, TryLoadHeader);

    /// <summary>
    /// The current versions after <paramref name="etag"/> in etag order, each read by <paramref name="load"/> from its
    /// storage key (false: gone meanwhile), in one read transaction; see <see cref="GetDocumentsAfterEtag(long, int, bool, Action{string, long, Exception}?)"/>.
    /// </summary>
    private List<T> ReadAfterEtag<T>(long etag, int maxCount, Action<string, long, Exception>? unreadable, VersionLoader<T> load)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCount);
        ThrowIfDisposed();
        var batch = new List<T>(Math.Min(maxCount, 1024));
        var seen = 0;
        using var tx = Engine.BeginRead();
        ReadAheadAfterEtag(tx, etag, maxCount);
        using var cursor = tx.OpenCursor(ByEtagTable);
        for (var found = cursor.Seek(StoredValues.EtagKey(etag + 1)); found && seen < maxCount; found = cursor.MoveNext())
        {
            bool loaded;
            T version;
#pragma warning disable CA1031 // Whatever a damaged record throws, the caller that asked is told and the feed goes on.
            try
            {
                loaded = load(tx, cursor.Value, out version);
            }
            catch (Exception ex) when (unreadable is not null && ex is not OutOfMemoryException)
            {
                seen++;
                unreadable(System.Text.Encoding.UTF8.GetString(cursor.Value), StoredValues.ReadEtagKey(cursor.Key), ex);
                continue;
            }
#pragma warning restore CA1031
            if (loaded)
            {
                seen++;
                batch.Add(version);
            }
        }
        return batch;
    }

    private delegate bool VersionLoader<T>(IReadTransaction tx, ReadOnlySpan<byte> storageKey, out T version);

    private bool TryLoadHeader(IReadTransaction tx, ReadOnlySpan<byte> storageKey, out DocumentHeader header)
    {
        header = default;
        if (!tx.TryGet(DocumentsTable, storageKey, out var span))
            return false;
        var record = new DocumentRecord(span);
        header = new DocumentHeader(record.Key, record.Etag, record.LastModified, record.EntityName);
        return true;
    }

    /// <summary>Tombstones with an etag greater than <paramref name="etag"/>, in etag order, at most <paramref name="maxCount"/>.</summary>
    public IReadOnlyList<Tombstone> GetTombstonesAfterEtag(long etag, int maxCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCount);
        ThrowIfDisposed();
        var batch = new List<Tombstone>();
        using var tx = Engine.BeginRead();
        using var cursor = tx.OpenCursor(TombstonesTable);
        for (var found = cursor.Seek(StoredValues.EtagKey(etag + 1)); found && batch.Count < maxCount; found = cursor.MoveNext())
            batch.Add(new Tombstone(System.Text.Encoding.UTF8.GetString(cursor.Value), StoredValues.ReadEtagKey(cursor.Key)));
        return batch;
    }

    /// <inheritdoc/>
    public IReadOnlyList<VersionReplacement> GetReplacementsAfterEtag(long etag, long upToEtag, int maxCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCount);
        ThrowIfDisposed();
        var batch = new List<VersionReplacement>();
        using var tx = Engine.BeginRead();
        using var cursor = tx.OpenCursor(ReplacedTable);
        for (var found = cursor.Seek(StoredValues.EtagKey(etag + 1)); found && batch.Count < maxCount; found = cursor.MoveNext())
        {
            var at = StoredValues.ReadEtagKey(cursor.Key);
            if (at > upToEtag)
                break;
            batch.Add(new VersionReplacement(at, StoredValues.ReadEtagKey(cursor.Value)));
        }
        return batch;
    }

    /// <summary>
    /// Removes tombstones and <see cref="ReplacedTable"/> records with an etag up to and including
    /// <paramref name="etag"/> (every index has seen them), except those a changes feed has yet to deliver (see
    /// <see cref="KeepTombstonesAfter"/>).
    /// </summary>
    /// <returns>How many tombstones were removed.</returns>
    public int PurgeTombstones(long etag)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ThrowIfDisposed();
        etag = Math.Min(etag, Volatile.Read(ref _tombstoneFloor)?.Invoke() ?? long.MaxValue);
        return Engine.Write(tx =>
        {
            var keys = new List<byte[]>();
            using (var cursor = tx.OpenCursor(TombstonesTable))
            {
                for (var found = cursor.MoveFirst(); found && StoredValues.ReadEtagKey(cursor.Key) <= etag; found = cursor.MoveNext())
                    keys.Add(cursor.Key.ToArray());
            }
            foreach (var key in keys)
                tx.Delete(TombstonesTable, key);
            var replaced = new List<byte[]>();
            using (var cursor = tx.OpenCursor(ReplacedTable))
            {
                for (var found = cursor.MoveFirst(); found && StoredValues.ReadEtagKey(cursor.Key) <= etag; found = cursor.MoveNext())
                    replaced.Add(cursor.Key.ToArray());
            }
            foreach (var key in replaced)
                tx.Delete(ReplacedTable, key);
            if (keys.Count > 0 || replaced.Count > 0)
            {
                // An index behind either purge missed what it removed: a delete, or a version to delete.
                var purged = Math.Max(keys.Count > 0 ? StoredValues.ReadEtagKey(keys[^1]) : 0, replaced.Count > 0 ? StoredValues.ReadEtagKey(replaced[^1]) : 0);
                if (purged > StoredValues.ReadInt64(tx, StateTable, TombstonesPurgedToName))
                    StoredValues.WriteInt64(tx, StateTable, TombstonesPurgedToName, purged);
            }
            return keys.Count;
        });
    }

    /// <inheritdoc/>
    public long ReadTombstonesPurgedTo()
    {
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        return StoredValues.ReadInt64(tx, StateTable, TombstonesPurgedToName);
    }

    /// <inheritdoc/>
    public bool IsShared => Engine is ISharedStorageEngine;

    private Func<long>? _tombstoneFloor;

    /// <summary>
    /// Keeps <see cref="PurgeTombstones"/> from removing tombstones after the etag <paramref name="floor"/> returns: the
    /// position of the slowest open changes feed, which must still deliver those deletes.
    /// </summary>
    public void KeepTombstonesAfter(Func<long> floor) => Volatile.Write(ref _tombstoneFloor, floor);

    /// <summary>
    /// Puts (current versions) and deletes (tombstones) with an etag greater than <paramref name="etag"/>, merged in etag
    /// order, at most <paramref name="maxCount"/>, read in one transaction so nothing committed before it is skipped. Reads
    /// only record headers (key, etag, entity name), never the documents' bodies. Deletes older than the indexes'
    /// tombstone purge are gone.
    /// </summary>
    public IReadOnlyList<DatabaseChange> GetChangesAfterEtag(long etag, int maxCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(etag);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCount);
        ThrowIfDisposed();
        var changes = new List<DatabaseChange>(Math.Min(maxCount, 1024));
        var from = StoredValues.EtagKey(etag + 1);
        using var tx = Engine.BeginRead();
        using var puts = tx.OpenCursor(ByEtagTable);
        using var deletes = tx.OpenCursor(TombstonesTable);
        var hasPut = puts.Seek(from);
        var hasDelete = deletes.Seek(from);
        while (changes.Count < maxCount && (hasPut || hasDelete))
        {
            var putEtag = hasPut ? StoredValues.ReadEtagKey(puts.Key) : long.MaxValue;
            var deleteEtag = hasDelete ? StoredValues.ReadEtagKey(deletes.Key) : long.MaxValue;
            if (putEtag < deleteEtag)
            {
                if (tx.TryGet(DocumentsTable, puts.Value, out var span))
                {
                    var record = new DocumentRecord(span);
                    changes.Add(new DatabaseChange(ChangeKind.Put, putEtag, record.Key, record.EntityName));
                }
                hasPut = puts.MoveNext();
            }
            else
            {
                changes.Add(new DatabaseChange(ChangeKind.Delete, deleteEtag, Encoding.UTF8.GetString(deletes.Value), null));
                hasDelete = deletes.MoveNext();
            }
        }
        return changes;
    }

    /// <summary>
    /// With an engine other servers share (PostgreSQL): whether its server is a primary or a read-only standby, and the
    /// standby's lag. Null with an engine of one process (LMDB, ESENT).
    /// </summary>
    public ReplicationStatus? GetReplicationStatus()
    {
        ThrowIfDisposed();
        return (Engine as ISharedStorageEngine)?.GetReplicationStatus();
    }
}
