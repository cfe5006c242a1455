using RavenLite.Caching;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Caching;

/// <summary>One cached document version, linked into one of the eviction policy's queues.</summary>
internal sealed class CacheEntry : EvictionEntry
{
    /// <summary>
    /// What an entry costs beyond its document: this object (96), the dictionary's node (64) and
    /// bucket slot (8). The storage key's array is added per entry.
    /// </summary>
    private const int Overhead = 96 + 64 + 8;

    private Document? _document;

    public CacheEntry(DocumentCache owner, CacheKey key, Document document)
    {
        Owner = owner;
        Key = key;
        _document = document;
    }

    public DocumentCache Owner { get; }

    public CacheKey Key { get; }

    /// <summary>
    /// The cached version; null once the entry has left the cache (<see cref="Release"/>), so that a
    /// <see cref="Documents.KnownVersion"/> still pointing here does not keep an evicted document alive.
    /// Read without a lock: a reader that sees null treats the entry as not cached.
    /// </summary>
    public Document? Document => Volatile.Read(ref _document);

    /// <inheritdoc />
    public override int GhostHash => Key.Hash;

    /// <summary>What the entry costs now, its document's parsed forms included.</summary>
    public long CurrentSize => SizeOf(Key.StorageKey.Length, Document);

    /// <summary>What an entry for <paramref name="document"/> under a storage key of that length costs.</summary>
    public static long SizeOf(int storageKeyLength, Document? document) =>
        Overhead + ManagedSize.ByteArray(storageKeyLength) + (document?.EstimatedSize ?? 0);

    /// <summary>Lets go of the document: the entry has left the cache (evicted, replaced or cleared).</summary>
    public override void Release() => Volatile.Write(ref _document, null);

    /// <summary>The document parsed a form it did not have when it was charged.</summary>
    public void DocumentGrew() => Owner.Recharge(this);
}
