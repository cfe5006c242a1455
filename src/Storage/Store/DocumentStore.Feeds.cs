namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
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

    /// <summary>
    /// Removes tombstones with an etag up to and including <paramref name="etag"/> (every index has seen them), except
    /// those a changes feed has yet to deliver (see <see cref="KeepTombstonesAfter"/>).
    /// </summary>
    /// <returns>How many were removed.</returns>
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
            return keys.Count;
        });
    }
}
