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
        ArgumentOutOfRangeException.ThrowIfNotEqual(etags.Count, keys.Count, nameof(etags));
        ThrowIfDisposed();
        var documents = new Document?[keys.Count];
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        List<int>? misses = null;
        for (var i = 0; i < documents.Length; i++)
        {
            if (_cache is not null && _cache.TryGet(buffer[..StorageKey.ToStorage(keys[i], buffer)], etags[i], out var cached, countMiss: false))
                documents[i] = cached;
            else
                (misses ??= []).Add(i);
        }
        if (misses is null)
            return new DocumentsRead(documents, 0, 0);

        // Not cached at that version (evicted, or replaced since): the current versions, from storage, in one transaction.
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        using (var tx = Engine.BeginRead())
        {
            if (tx is IReadAheadTransaction)
                ReadAhead(tx, [.. misses.Select(i => StorageKey.ToStorage(keys[i]))]);
            foreach (var i in misses)
                documents[i] = Load(tx, buffer[..StorageKey.ToStorage(keys[i], buffer)]);
        }
        return new DocumentsRead(documents, misses.Count, System.Diagnostics.Stopwatch.GetTimestamp() - started);
    }
}
