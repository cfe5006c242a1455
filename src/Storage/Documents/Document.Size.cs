using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

public sealed partial class Document
{
    // Header 16 + seven references 56 + etag 8 + DateTimeOffset 16 + three ints 12 = 108, aligned to 8.
    private const int InstanceBytes = 112;

    private readonly int _metadataTokens;
    private readonly int _dataTokens;
    private CacheEntry? _cacheEntry;

    /// <summary>
    /// Bytes this instance keeps alive, for cache accounting: itself, the JSON text, its strings, and each
    /// parsed form and the kept rendering once they exist. Only grows (a form is parsed once), so a cache can charge the difference.
    /// </summary>
    internal long EstimatedSize
    {
        get
        {
            var size = InstanceBytes + ManagedSize.ByteArray(_json.Length)
                + ManagedSize.String(Key.Length) + (EntityName is null ? 0 : ManagedSize.String(EntityName.Length));
            if (Volatile.Read(ref _metadata) is not null)
                size += ManagedSize.ParsedJson(_metadataLength, _metadataTokens);
            if (Volatile.Read(ref _data) is not null)
                size += ManagedSize.ParsedJson(_json.Length - _metadataLength, _dataTokens);
            return size + RenderingSize;
        }
    }

    /// <summary>Tells this document which cache entry holds it, so a later parse is charged to that cache.</summary>
    /// <remarks>A full fence: either the cache sees a parse that happened first, or the parse sees the entry.</remarks>
    internal void AttachTo(CacheEntry entry) => Interlocked.Exchange(ref _cacheEntry, entry);

    private void OnParsedFormAdded() => Volatile.Read(ref _cacheEntry)?.DocumentGrew();
}
