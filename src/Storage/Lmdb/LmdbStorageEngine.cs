using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>
/// The LMDB engine: a copy-on-write B+tree in one memory-mapped file. Crash-safe without a log, readers
/// never block, reads are spans into the map. One write transaction at a time, bound to its thread.
/// </summary>
internal sealed partial class LmdbStorageEngine : IStorageEngine
{
    private const uint MaxTables = 32;
    private const uint MaxReaders = 512;
    private const uint FileMode = 0x1A4; // 0644

    /// <summary>The file LMDB keeps its data in, inside the engine's folder.</summary>
    internal const string DataFileName = "data.mdb";

    /// <summary>The file LMDB keeps its reader table in, beside the data file.</summary>
    internal const string LockFileName = "lock.mdb";
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(30);

    private readonly object _writeLock = new();
    private readonly Dictionary<string, StorageTable> _tables = new(StringComparer.Ordinal);
    private readonly string _folder;
    private readonly long _maxMapSize;
    private nint _env;
    private long _mapSize;
    private int _disposed;

    /// <param name="folder">The folder holding <c>data.mdb</c>.</param>
    /// <param name="mapSize">The initial map size in bytes.</param>
    /// <param name="maxMapSize">The most the map may grow to; past it a write that needs more room fails with
    /// <see cref="StorageFullException"/>.</param>
    public LmdbStorageEngine(string folder, long mapSize, long maxMapSize = long.MaxValue)
    {
        _folder = folder;
        _maxMapSize = maxMapSize;
        LmdbErrors.Check(LmdbNative.EnvCreate(out _env), "Creating the LMDB environment");
        try
        {
            LmdbErrors.Check(LmdbNative.EnvSetMaxDbs(_env, MaxTables), "Setting the table limit");
            LmdbErrors.Check(LmdbNative.EnvSetMaxReaders(_env, MaxReaders), "Setting the reader limit");
            LmdbErrors.Check(LmdbNative.EnvSetMapSize(_env, (nuint)mapSize), "Setting the map size");
            LmdbErrors.Check(
                LmdbNative.EnvOpen(_env, folder, MdbConstants.NoTls | MdbConstants.NoReadAhead, FileMode),
                $"Opening the LMDB environment in '{folder}'");
            LmdbErrors.Check(LmdbNative.EnvInfo(_env, out var info), "Reading the environment info");
            // An existing file may already be larger than asked; LMDB adopts its size.
            _mapSize = Math.Max(mapSize, (long)info.MapSize);
        }
        catch
        {
            LmdbNative.EnvClose(_env);
            _env = 0;
            throw;
        }
    }

    public StorageEngineKind Kind => StorageEngineKind.Lmdb;

    /// <summary>The current map size in bytes (grows by doubling when a write finds the map full).</summary>
    public long MapSize => Interlocked.Read(ref _mapSize);

    internal TransactionGate Gate { get; } = new();

    /// <summary>The id of the last committed write transaction (LMDB's <c>me_last_txnid</c>).</summary>
    internal long LastTransactionId
    {
        get
        {
            ThrowIfDisposed();
            LmdbErrors.Check(LmdbNative.EnvInfo(_env, out var info), "Reading the environment info");
            return (long)info.LastTransactionId;
        }
    }

    public StorageTable OpenTable(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        lock (_writeLock)
        {
            if (_tables.TryGetValue(name, out var table))
                return table;
            var dbi = Write(tx =>
            {
                LmdbErrors.Check(
                    LmdbNative.DbiOpen(((LmdbWriteTransaction)tx).Handle, name, MdbConstants.Create, out var d),
                    $"Opening table '{name}'");
                return d;
            });
            table = new StorageTable(name, (int)dbi);
            _tables.Add(name, table);
            return table;
        }
    }

    internal static uint Dbi(StorageTable table) => (uint)table.Id;

    public IReadTransaction BeginRead()
    {
        ThrowIfDisposed();
        Gate.Enter();
        // Dispose may have closed the environment while this thread waited at the gate.
        if (Volatile.Read(ref _disposed) != 0)
        {
            Gate.Exit();
            ThrowIfDisposed();
        }
        var code = LmdbNative.TxnBegin(_env, 0, 0x20000 /* MDB_RDONLY */, out var txn);
        if (code != MdbConstants.Success)
        {
            Gate.Exit();
            throw LmdbErrors.ToException(code, "Beginning a read transaction");
        }
        return new LmdbReadTransaction(this, txn);
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
