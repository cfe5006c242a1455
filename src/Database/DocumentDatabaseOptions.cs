using RavenLite.Storage;

namespace RavenLite.Database;

/// <summary>
/// How to open a <see cref="DocumentDatabase"/>: the one options class of the embedded database. The server binds it
/// from its <c>RavenLite</c> configuration section under the same names (<c>appsettings.json</c>, environment variables
/// such as <c>RavenLite__MaxPageSize</c>, and command-line switches such as <c>--cache-size-mb</c>), and checks it
/// once, with <see cref="Validate"/>, before anything opens.
/// </summary>
public sealed partial class DocumentDatabaseOptions
{
    /// <summary>The folder holding the database; created when missing. One database per folder.</summary>
    public required string DataDirectory { get; set; }

    /// <summary>
    /// The storage engine: LMDB (default, every OS), ESENT (Windows only, package RavenLite.Storage.Esent) or
    /// PostgreSQL (package RavenLite.Storage.Postgres, with <see cref="ConnectionString"/>).
    /// </summary>
    public StorageEngineKind Engine { get; set; } = StorageEngineKind.Lmdb;

    /// <inheritdoc cref="StorageOptions.ConnectionString"/>
    public string? ConnectionString { get; set; }

    /// <summary>Initial LMDB map size in bytes (grows by doubling when full). Default 4 GiB of address space.</summary>
    public long MapSize { get; set; } = StorageOptions.DefaultMapSize;

    /// <summary>
    /// The document cache's size limit in MiB; 0 turns the cache off. Null (the default): a sixteenth of the memory
    /// the process may use, at most 1 GiB (<see cref="StorageOptions.DefaultCacheSizeBytes"/>). More than that memory is
    /// refused by <see cref="Validate"/>.
    /// </summary>
    public long? CacheSizeMb { get; set; }

    /// <summary>
    /// Where the database's clock comes from: documents' <c>Last-Modified</c>, backups' times, and indexing's intervals
    /// and deadlines. The system clock by default; tests pass a fake one to move time without waiting. Not bound from
    /// configuration.
    /// </summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;

    /// <summary>
    /// How often the expiry task deletes the documents whose expiry time (metadata <c>Raven-Expiration-Date</c>) has
    /// passed (60 seconds is a usual choice); <see cref="TimeSpan.Zero"/>, the default, leaves the task off. Either way,
    /// loads and queries never return an expired document; the task is what removes it from storage, the indexes and the
    /// counts, with a delete in the changes feed. Off by default, as RavenDB 1.0's expiration bundle was: a database that
    /// does not use expiry pays nothing, not even the first pass over every document's metadata.
    /// </summary>
    public TimeSpan ExpiryInterval { get; set; }

    /// <summary>Whether parsed documents are cached by (key, etag) in front of BSON deserialization: <see cref="CacheSizeMb"/> is not 0.</summary>
    public bool CacheEnabled => CacheSizeMb is not 0;

    /// <summary>
    /// Checks every setting (the storage and indexing layers' rules included) and throws on the first bad one, naming
    /// it. <see cref="DocumentDatabase"/> calls it before opening anything.
    /// </summary>
    /// <exception cref="ArgumentException">A setting is missing or out of range (an <see cref="ArgumentOutOfRangeException"/> for ranges).</exception>
    public void Validate()
    {
        if (TimeProvider is null)
            throw new ArgumentNullException(nameof(TimeProvider), "TimeProvider must be a clock (TimeProvider.System by default).");
        if (ExpiryInterval < TimeSpan.Zero || ExpiryInterval.TotalMilliseconds > uint.MaxValue - 1)
            throw new ArgumentOutOfRangeException(nameof(ExpiryInterval), ExpiryInterval,
                "ExpiryInterval must be a positive time span (at most 49 days), or zero to turn the expiry task off.");
        if (CacheSizeMb is < 0 or > long.MaxValue / (1024 * 1024))
            throw new ArgumentOutOfRangeException(nameof(CacheSizeMb), CacheSizeMb,
                "CacheSizeMb must be a size in MiB, or 0 to turn the cache off.");
        try
        {
            ToStorageOptions().Validate();
        }
        catch (ArgumentOutOfRangeException ex) when (ex.ParamName == nameof(StorageOptions.CacheSizeBytes))
        {
            throw new ArgumentOutOfRangeException(nameof(CacheSizeMb), CacheSizeMb,
                $"CacheSizeMb is more than the memory this process can use ({ex.Message.Split('.')[0]}).");
        }
        ToIndexingOptions().Validate();
    }

    internal StorageOptions ToStorageOptions() => new()
    {
        DataDirectory = DataDirectory,
        Engine = Engine,
        ConnectionString = ConnectionString,
        MapSize = MapSize,
        CacheEnabled = CacheEnabled,
        CacheSizeBytes = CacheSizeMb is { } mb and > 0 ? mb * 1024 * 1024 : StorageOptions.DefaultCacheSizeBytes,
        TimeProvider = TimeProvider,
    };
}
