namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
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
}
