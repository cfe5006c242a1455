namespace RavenLite.Storage;

/// <summary>Options for opening a storage engine on a folder.</summary>
public sealed class StorageOptions
{
    /// <summary>Default initial LMDB map size: 4 GiB of address space (the file itself grows only as it is written).</summary>
    public const long DefaultMapSize = 4L * 1024 * 1024 * 1024;

    /// <summary>The folder holding the database. Created when missing.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>Which engine keeps the data. <see cref="StorageEngineKind.Lmdb"/> by default.</summary>
    public StorageEngineKind Engine { get; init; } = StorageEngineKind.Lmdb;

    /// <summary>
    /// Initial LMDB map size in bytes; the map doubles when a write finds it full.
    /// Ignored by ESENT, which grows its file by itself.
    /// </summary>
    public long MapSize { get; init; } = DefaultMapSize;

    /// <summary>
    /// The PostgreSQL connection string (Npgsql's syntax) when <see cref="Engine"/> is
    /// <see cref="StorageEngineKind.Postgres"/>; its <c>Search Path</c> picks the schema RavenLite's tables live in.
    /// Required by that engine, ignored by the others. Never logged: it may hold a password.
    /// </summary>
    public string? ConnectionString { get; init; }

    /// <summary>Where the store's clock comes from (a document's <c>Last-Modified</c>). The system clock by default.</summary>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;

    /// <summary>Throws on the first setting out of range, naming it.</summary>
    /// <exception cref="ArgumentException">A setting is missing or out of range.</exception>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(DataDirectory))
            throw new ArgumentException("DataDirectory must name a folder.", nameof(DataDirectory));
        if (!Enum.IsDefined(Engine))
            throw new ArgumentOutOfRangeException(nameof(Engine), Engine, "Unknown storage engine.");
        if (MapSize < 1024 * 1024)
            throw new ArgumentOutOfRangeException(nameof(MapSize), MapSize, "MapSize must be at least 1 MiB.");
        if (Engine == StorageEngineKind.Postgres && string.IsNullOrWhiteSpace(ConnectionString))
            throw new ArgumentException("Engine = Postgres needs a ConnectionString.", nameof(ConnectionString));
        ValidateCache();
    }

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
