namespace RavenLite.Storage.Caching;

/// <summary>
/// A cached version's identity: the folded storage key (so different casings share an entry) and the etag
/// (so a write never has to find and invalidate anything: the new version is simply a new key).
/// </summary>
internal readonly struct CacheKey
{
    public CacheKey(byte[] storageKey, long etag, int hash)
    {
        StorageKey = storageKey;
        Etag = etag;
        Hash = hash;
    }

    public byte[] StorageKey { get; }

    public long Etag { get; }

    /// <summary>Computed once, so table growth and eviction never hash the bytes again.</summary>
    public int Hash { get; }

    public static int ComputeHash(ReadOnlySpan<byte> storageKey, long etag)
    {
        var hash = new HashCode();
        hash.AddBytes(storageKey);
        hash.Add(etag);
        return hash.ToHashCode();
    }
}

/// <summary>A <see cref="CacheKey"/> over a span the engine handed out: lookups allocate nothing.</summary>
internal readonly ref struct CacheLookupKey
{
    public CacheLookupKey(ReadOnlySpan<byte> storageKey, long etag)
    {
        StorageKey = storageKey;
        Etag = etag;
    }

    public ReadOnlySpan<byte> StorageKey { get; }

    public long Etag { get; }
}

/// <summary>Compares stored keys with each other and with lookups over spans.</summary>
internal sealed class CacheKeyComparer : IEqualityComparer<CacheKey>, IAlternateEqualityComparer<CacheLookupKey, CacheKey>
{
    public static CacheKeyComparer Instance { get; } = new();

    public bool Equals(CacheKey x, CacheKey y) =>
        x.Hash == y.Hash && x.Etag == y.Etag && x.StorageKey.AsSpan().SequenceEqual(y.StorageKey);

    public int GetHashCode(CacheKey obj) => obj.Hash;

    public bool Equals(CacheLookupKey alternate, CacheKey other) =>
        alternate.Etag == other.Etag && alternate.StorageKey.SequenceEqual(other.StorageKey);

    public int GetHashCode(CacheLookupKey alternate) => CacheKey.ComputeHash(alternate.StorageKey, alternate.Etag);

    public CacheKey Create(CacheLookupKey alternate) =>
        new(alternate.StorageKey.ToArray(), alternate.Etag, CacheKey.ComputeHash(alternate.StorageKey, alternate.Etag));
}
