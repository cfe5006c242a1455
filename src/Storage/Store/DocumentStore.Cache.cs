using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
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

    /// <summary>After a commit, frees the versions the write replaced or deleted (best effort).</summary>
    private void ForgetReplaced(IReadOnlyList<ReplacedVersion> replaced)
    {
        if (_cache is null)
            return;
        foreach (var version in replaced)
            _cache.Remove(version.StorageKey, version.Etag);
    }
}
