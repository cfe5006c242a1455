namespace RavenLite.Storage;

/// <summary>Options for opening a storage engine on a folder.</summary>
public sealed partial class StorageOptions
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
}
