namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
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
}
