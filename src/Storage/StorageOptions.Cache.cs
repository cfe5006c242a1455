namespace RavenLite.Storage;

public sealed partial class StorageOptions
{
    /// <summary>The most the default cache size can be: 1 GiB.</summary>
    public const long MaxDefaultCacheSizeBytes = 1L << 30;

    /// <summary>
    /// The default <see cref="CacheSizeBytes"/>: a sixteenth of the memory this process may use (the GC's
    /// <see cref="GCMemoryInfo.TotalAvailableMemoryBytes"/>, which honours container limits), at most 1 GiB.
    /// A 24 GB machine gets 1 GiB; a container limited to 512 MiB gets 32 MiB.
    /// </summary>
    public static long DefaultCacheSizeBytes { get; } = Math.Min(MaxDefaultCacheSizeBytes, TotalAvailableMemoryBytes / 16);

    private static long TotalAvailableMemoryBytes => GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;

    /// <summary>
    /// Whether parsed documents are cached by (key, etag) in front of BSON deserialization. On by default;
    /// off, every read deserializes.
    /// </summary>
    public bool CacheEnabled { get; init; } = true;

    /// <summary>
    /// The most bytes the document cache keeps, by its estimate of what each document holds (JSON text,
    /// parsed forms, strings, object headers). Default <see cref="DefaultCacheSizeBytes"/>. A document bigger
    /// than the whole cache is served but not cached.
    /// </summary>
    public long CacheSizeBytes { get; init; } = DefaultCacheSizeBytes;

    private void ValidateCache()
    {
        if (CacheSizeBytes <= 0)
            throw new ArgumentOutOfRangeException(nameof(CacheSizeBytes), CacheSizeBytes,
                "CacheSizeBytes must be positive. To turn the cache off, set CacheEnabled = false.");
        var available = TotalAvailableMemoryBytes;
        if (CacheSizeBytes > available)
            throw new ArgumentOutOfRangeException(nameof(CacheSizeBytes), CacheSizeBytes,
                $"CacheSizeBytes is more than the {available:N0} bytes of memory this process can use.");
    }
}
