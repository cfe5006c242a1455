using RavenLite.Storage;

namespace RavenLite.Database;

/// <summary>How to open a <see cref="DocumentDatabase"/>.</summary>
public sealed partial class DocumentDatabaseOptions
{
    /// <summary>The folder holding the database; created when missing. One database per folder.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>
    /// The storage engine: LMDB (default, every OS), ESENT (Windows only, package RavenLite.Storage.Esent) or
    /// PostgreSQL (package RavenLite.Storage.Postgres, with <see cref="ConnectionString"/>).
    /// </summary>
    public StorageEngineKind Engine { get; init; } = StorageEngineKind.Lmdb;

    /// <inheritdoc cref="StorageOptions.ConnectionString"/>
    public string? ConnectionString { get; init; }

    /// <summary>Initial LMDB map size in bytes (grows by doubling when full). Default 4 GiB of address space.</summary>
    public long MapSize { get; init; } = StorageOptions.DefaultMapSize;

    /// <summary>
    /// Whether parsed documents are cached by (key, etag) in front of BSON deserialization. On by default.
    /// </summary>
    public bool CacheEnabled { get; init; } = true;

    /// <summary>
    /// The document cache's size limit in bytes. Default <see cref="StorageOptions.DefaultCacheSizeBytes"/>:
    /// a sixteenth of the memory the process may use, at most 1 GiB. Zero or less, or more than that memory,
    /// is refused with <see cref="ArgumentOutOfRangeException"/> when the database opens.
    /// </summary>
    public long CacheSizeBytes { get; init; } = StorageOptions.DefaultCacheSizeBytes;

    internal StorageOptions ToStorageOptions() => new()
    {
        DataDirectory = DataDirectory,
        Engine = Engine,
        ConnectionString = ConnectionString,
        MapSize = MapSize,
        CacheEnabled = CacheEnabled,
        CacheSizeBytes = CacheSizeBytes,
    };
}
