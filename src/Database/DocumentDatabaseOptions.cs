using RavenLite.Storage;

namespace RavenLite.Database;

/// <summary>How to open a <see cref="DocumentDatabase"/>.</summary>
public sealed class DocumentDatabaseOptions
{
    /// <summary>The folder holding the database; created when missing. One database per folder.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>The storage engine: LMDB (default, every OS) or ESENT (Windows only).</summary>
    public StorageEngineKind Engine { get; init; } = StorageEngineKind.Lmdb;

    /// <summary>Initial LMDB map size in bytes (grows by doubling when full). Default 4 GiB of address space.</summary>
    public long MapSize { get; init; } = StorageOptions.DefaultMapSize;

    internal StorageOptions ToStorageOptions() => new()
    {
        DataDirectory = DataDirectory,
        Engine = Engine,
        MapSize = MapSize,
    };
}
