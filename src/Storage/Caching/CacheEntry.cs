using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Caching;

/// <summary>One cached document version, linked into one of the cache's queues.</summary>
/// <remarks>Every field but the use count is read and written under the cache's policy lock.</remarks>
internal sealed class CacheEntry
{
    /// <summary>Uses remembered, at most; so an entry survives at most this many passes of the main queue unused.</summary>
    private const int MaxUses = 3;

    /// <summary>
    /// What an entry costs beyond its document: this object (96), the dictionary's node (64) and
    /// bucket slot (8). The storage key's array is added per entry.
    /// </summary>
    private const int Overhead = 96 + 64 + 8;

    private int _uses;

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

    /// <summary>The bytes the cache counts for this entry now.</summary>
    public long ChargedBytes { get; set; }

    /// <summary>The queue holding the entry; null once it has left the cache.</summary>
    public CacheQueue? Queue { get; set; }

    public CacheEntry? Previous { get; set; }

    public CacheEntry? Next { get; set; }

    /// <summary>Reads since the entry was queued or last passed over, up to <see cref="MaxUses"/>.</summary>
    public int Uses => Volatile.Read(ref _uses);

    /// <summary>What the entry costs now, its document's parsed forms included.</summary>
    public long CurrentSize => Overhead + ManagedSize.ByteArray(Key.StorageKey.Length) + (Document?.EstimatedSize ?? 0);

    /// <summary>Lets go of the document: the entry has left the cache (evicted, replaced or cleared).</summary>
    public void Release() => Volatile.Write(ref _document, null);

    /// <summary>Called on every hit, without a lock: approximate counts are enough, so no atomics.</summary>
    public void Touch()
    {
        if (_uses < MaxUses)
            _uses++;
    }

    /// <summary>Spends one remembered use (a second chance in the main queue), or forgets them on promotion.</summary>
    public void SpendUse() => _uses = Math.Max(0, _uses - 1);

    public void ForgetUses() => _uses = 0;

    /// <summary>The document parsed a form it did not have when it was charged.</summary>
    public void DocumentGrew() => Owner.Recharge(this);
}
