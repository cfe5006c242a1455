namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Reads documents whose current etags the caller knows from a source consistent with every write the caller
    /// must see (an index that has indexed up to the database's last etag): a cached document with that etag is
    /// returned without a storage lookup; any other is read from storage, as <see cref="Get(IReadOnlyList{string})"/>
    /// does. Keys must be valid (they come from stored documents). Timestamps are taken only around storage reads,
    /// never for a cache hit.
    /// </summary>
    public DocumentsRead GetKnownVersions(IReadOnlyList<string> keys, IReadOnlyList<long> etags)
    {
        var fromStorage = 0;
        long storageTicks = 0;
        ArgumentOutOfRangeException.ThrowIfNotEqual(etags.Count, keys.Count, nameof(etags));
        ThrowIfDisposed();
        var documents = new Document?[keys.Count];
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        IReadTransaction? tx = null;
        try
        {
            for (var i = 0; i < documents.Length; i++)
            {
                var storageKey = buffer[..StorageKey.ToStorage(keys[i], buffer)];
                if (_cache is not null && _cache.TryGet(storageKey, etags[i], out var cached, countMiss: false))
                {
                    documents[i] = cached;
                    continue;
                }
                // Not cached at that version (evicted, or replaced since): the current version, from storage.
                var started = System.Diagnostics.Stopwatch.GetTimestamp();
                tx ??= Engine.BeginRead();
                documents[i] = Load(tx, storageKey);
                storageTicks += System.Diagnostics.Stopwatch.GetTimestamp() - started;
                fromStorage++;
            }
        }
        finally
        {
            tx?.Dispose();
        }
        return new DocumentsRead(documents, fromStorage, storageTicks);
    }
}
