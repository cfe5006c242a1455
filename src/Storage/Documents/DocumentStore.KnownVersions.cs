namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Reads documents whose current etags the caller knows from a source consistent with every write the caller
    /// must see (an index that has indexed up to the database's last etag): a cached document with that etag is
    /// returned without a storage lookup; any other is read from storage, as <see cref="Get(IReadOnlyList{string})"/>
    /// does. Keys must be valid (they come from stored documents). <paramref name="fromStorage"/> counts the
    /// documents read from storage, <paramref name="storageTicks"/> the <see cref="System.Diagnostics.Stopwatch"/>
    /// ticks spent reading them (timestamps are taken only around storage reads, never for a cache hit).
    /// </summary>
    internal IReadOnlyList<Document?> GetKnownVersions(IReadOnlyList<string> keys, IReadOnlyList<long> etags, out int fromStorage, out long storageTicks)
    {
        fromStorage = 0;
        storageTicks = 0;
        ArgumentOutOfRangeException.ThrowIfNotEqual(etags.Count, keys.Count, nameof(etags));
        ThrowIfDisposed();
        var documents = new Document?[keys.Count];
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        List<int>? misses = null;
        for (var i = 0; i < documents.Length; i++)
        {
            if (_cache is not null && _cache.TryGet(buffer[..DocumentKey.ToStorage(keys[i], buffer)], etags[i], out var cached, countMiss: false))
                documents[i] = cached;
            else
                (misses ??= []).Add(i);
        }
        if (misses is null)
            return documents;

        // Not cached at that version (evicted, or replaced since): the current versions, from storage, in one transaction.
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        using (var tx = Engine.BeginRead())
        {
            if (tx is IReadAheadTransaction)
                ReadAhead(tx, [.. misses.Select(i => DocumentKey.ToStorage(keys[i]))]);
            foreach (var i in misses)
                documents[i] = Load(tx, buffer[..DocumentKey.ToStorage(keys[i], buffer)]);
        }
        storageTicks = System.Diagnostics.Stopwatch.GetTimestamp() - started;
        fromStorage = misses.Count;
        return documents;
    }
}
