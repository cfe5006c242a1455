namespace RavenLite.Storage.Documents;

internal sealed partial class DocumentStore
{
    /// <summary>Loads a document by key (case-insensitively); null when there is none.</summary>
    public Document? Get(string key)
    {
        DocumentKey.Validate(key);
        ThrowIfDisposed();
        Span<byte> storageKey = stackalloc byte[DocumentKey.MaxBytes];
        storageKey = storageKey[..StorageKey.ToStorage(key, storageKey)];
        using var tx = Engine.BeginRead();
        return Load(tx, storageKey);
    }

    /// <summary>Loads several documents in one read transaction; null where a key has no document.</summary>
    public IReadOnlyList<Document?> Get(IReadOnlyList<string> keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        for (var i = 0; i < keys.Count; i++)
            DocumentKey.Validate(keys[i], nameof(keys), i);
        ThrowIfDisposed();
        var documents = new Document?[keys.Count];
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        using var tx = Engine.BeginRead();
        if (tx is IReadAheadTransaction)
            ReadAhead(tx, [.. keys.Select(StorageKey.ToStorage)]);
        for (var i = 0; i < documents.Length; i++)
            documents[i] = Load(tx, buffer[..StorageKey.ToStorage(keys[i], buffer)]);
        return documents;
    }

    /// <summary>The stored BSON of a document, copied out exactly as kept; null when there is none.</summary>
    public RawDocument? GetRaw(string key)
    {
        DocumentKey.Validate(key);
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        if (!tx.TryGet(DocumentsTable, StorageKey.ToStorage(key), out var span))
            return null;
        var record = new DocumentRecord(span);
        return new RawDocument(record.Key, record.Etag, record.LastModified,
            record.MetadataBson.ToArray(), record.DataBson.ToArray());
    }

    /// <summary>A page of all documents, newest (highest etag) first.</summary>
    public IReadOnlyList<Document> GetDocuments(int start, int pageSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfNegative(pageSize);
        ThrowIfDisposed();
        var page = new List<Document>(Math.Min(pageSize, 1024));
        using var tx = Engine.BeginRead();
        using var cursor = tx.OpenCursor(ByEtagTable);
        var found = cursor.MoveLast();
        for (var skipped = 0; found && skipped < start; skipped++)
            found = cursor.MovePrevious();
        for (; found && page.Count < pageSize; found = cursor.MovePrevious())
        {
            if (Load(tx, cursor.Value) is { } document)
                page.Add(document);
        }
        return page;
    }

    /// <summary>
    /// Reads one stored document in <paramref name="tx"/>; the single place records become documents. A hit is
    /// served from the cache; a miss is added to it unless <paramref name="addMiss"/> is false (one-pass readers).
    /// </summary>
    internal Document? Load(IReadTransaction tx, ReadOnlySpan<byte> storageKey, bool addMiss = true)
    {
        if (!tx.TryGet(DocumentsTable, storageKey, out var span))
            return null;
        if (_cache is null)
            return DocumentReader.Read(new DocumentRecord(span));
        if (_cache.TryGet(storageKey, DocumentRecord.ReadEtag(span), out var cached))
            return cached;
        var document = DocumentReader.Read(new DocumentRecord(span));
        return addMiss ? _cache.Add(storageKey, document) : document;
    }

    /// <summary>
    /// Reads documents whose current etags the caller knows from a source consistent with every write the caller
    /// must see (an index that has indexed up to the database's last etag): a cached document with that etag is
    /// returned without a storage lookup (by the cache entry the version remembers, when it still holds it); any
    /// other is read from storage, as <see cref="Get(IReadOnlyList{string})"/> does. Keys must be valid (they come
    /// from stored documents). Timestamps are taken only around storage reads, never for a cache hit.
    /// </summary>
    public DocumentsRead GetKnownVersions(IReadOnlyList<KnownVersion> versions)
    {
        ArgumentNullException.ThrowIfNull(versions);
        ThrowIfDisposed();
        var documents = new Document?[versions.Count];
        var misses = _cache is null ? [.. Enumerable.Range(0, documents.Length)] : _cache.TryGetKnown(versions, documents);
        if (misses is null || misses.Count == 0)
            return new DocumentsRead(documents, 0, 0);

        // Not cached at that version (evicted, or replaced since): the current versions, from storage, in one transaction.
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        using (var tx = Engine.BeginRead())
        {
            if (tx is IReadAheadTransaction)
                ReadAhead(tx, [.. misses.Select(i => StorageKey.ToStorage(versions[i].Key))]);
            foreach (var i in misses)
                documents[i] = Load(tx, buffer[..StorageKey.ToStorage(versions[i].Key, buffer)]);
        }
        return new DocumentsRead(documents, misses.Count, System.Diagnostics.Stopwatch.GetTimestamp() - started);
    }

    /// <summary>
    /// With an engine that reads over a network, fetches the documents under <paramref name="storageKeys"/> in one round
    /// trip before they are loaded one by one; with LMDB, nothing.
    /// </summary>
    private void ReadAhead(IReadTransaction tx, List<byte[]> storageKeys)
    {
        if (tx is IReadAheadTransaction ahead && storageKeys.Count > 1)
            ahead.ReadAhead(DocumentsTable, storageKeys);
    }

    /// <summary>The feed's <see cref="ReadAhead(IReadTransaction, List{byte[]})"/>: the documents after <paramref name="etag"/>.</summary>
    private void ReadAheadAfterEtag(IReadTransaction tx, long etag, int maxCount)
    {
        if (tx is not IReadAheadTransaction)
            return;
        var keys = new List<byte[]>(Math.Min(maxCount, 1024));
        using (var cursor = tx.OpenCursor(ByEtagTable))
        {
            for (var found = cursor.Seek(StoredValues.EtagKey(etag + 1)); found && keys.Count < maxCount; found = cursor.MoveNext())
                keys.Add(cursor.Value.ToArray());
        }
        ReadAhead(tx, keys);
    }
}
