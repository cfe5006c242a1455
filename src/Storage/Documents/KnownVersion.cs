using RavenLite.Storage.Caching;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A document version (key and etag) that a reader knows to be current and asks for again and again, as an index
/// does for its hits. The store remembers on it where its document cache keeps that version, so asking again through
/// <see cref="IIndexedDocuments.GetKnownVersions"/> skips folding and hashing the key and the cache's table. Keep one
/// per version for as long as it may be asked for; it may be shared between threads.
/// </summary>
public sealed class KnownVersion
{
    /// <summary>A version of <paramref name="key"/> at <paramref name="etag"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="key"/> is null.</exception>
    public KnownVersion(string key, long etag)
    {
        ArgumentNullException.ThrowIfNull(key);
        Key = key;
        Etag = etag;
    }

    /// <summary>The document key, as stored (any casing).</summary>
    public string Key { get; }

    /// <summary>The etag of the version.</summary>
    public long Etag { get; }

    /// <summary>
    /// The cache entry this version was last found in. Read and written without a lock: a hint, checked on every use
    /// (an entry that has left its cache is never used, and a torn race only costs a lookup).
    /// </summary>
    internal CacheEntry? CachedEntry { get; set; }
}
