namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>Loads a document by key (case-insensitively); null when there is none.</summary>
    public Document? Get(string key)
    {
        DocumentKey.Validate(key);
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        return Load(tx, DocumentKey.ToStorage(key));
    }

    /// <summary>Loads several documents in one read transaction; null where a key has no document.</summary>
    public IReadOnlyList<Document?> Get(IReadOnlyList<string> keys)
    {
        ArgumentNullException.ThrowIfNull(keys);
        var storageKeys = new byte[keys.Count][];
        for (var i = 0; i < keys.Count; i++)
        {
            DocumentKey.Validate(keys[i], $"keys[{i}]");
            storageKeys[i] = DocumentKey.ToStorage(keys[i]);
        }
        ThrowIfDisposed();
        var documents = new Document?[keys.Count];
        using var tx = Engine.BeginRead();
        for (var i = 0; i < storageKeys.Length; i++)
            documents[i] = Load(tx, storageKeys[i]);
        return documents;
    }

    /// <summary>The stored BSON of a document, copied out exactly as kept; null when there is none.</summary>
    public RawDocument? GetRaw(string key)
    {
        DocumentKey.Validate(key);
        ThrowIfDisposed();
        using var tx = Engine.BeginRead();
        if (!tx.TryGet(DocumentsTable, DocumentKey.ToStorage(key), out var span))
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

    /// <summary>Reads one stored document in <paramref name="tx"/>; the single place records become documents.</summary>
    internal Document? Load(IReadTransaction tx, ReadOnlySpan<byte> storageKey)
    {
        if (!tx.TryGet(DocumentsTable, storageKey, out var span))
            return null;
        var record = new DocumentRecord(span);
        return Materialize(record);
    }

    private static Document Materialize(scoped in DocumentRecord record) => DocumentReader.Read(record);
}
