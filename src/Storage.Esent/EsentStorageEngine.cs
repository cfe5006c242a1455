using System.Collections.Concurrent;
using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// The ESENT engine: Windows' Extensible Storage Engine (esent.dll), a B+tree database with write-ahead
/// logging and crash recovery. One ESENT instance per engine, with its checkpoint, logs and temporary
/// database in the engine's folder and the data in <c>ravenlite.edb</c>.
/// </summary>
/// <remarks>
/// <para>
/// Each table is an ESENT table with two long-binary columns, <c>k</c> and <c>v</c>, and a primary index on
/// <c>k</c>; ESENT normalizes variable-length binary so that keys order by unsigned byte comparison.
/// </para>
/// <para>
/// Read transactions run on pooled sessions and may move between threads; the one write transaction runs
/// on a session of its own, on its caller's thread. Durable commits wait for the log flush; lazy ones
/// (<c>JET_bitCommitLazyFlush</c>) do not. Circular logging keeps the log bounded: crash recovery needs
/// only the logs since the last checkpoint (there is no log-based backup to keep them for).
/// </para>
/// </remarks>
[SupportedOSPlatform("windows")]
internal sealed partial class EsentStorageEngine : IStorageEngine
{
    /// <summary>The database file inside the engine's folder.</summary>
    public const string DatabaseFileName = "ravenlite.edb";

    /// <summary>
    /// 8 KiB pages: the smallest page whose key limit (JET_cbKeyMost8KBytePage, 2000 bytes) holds a
    /// normalized <see cref="EsentRecord.MaxKeySize"/>-byte key.
    /// </summary>
    private const int PageSize = 8192;
    private const int MaxSessions = 1024;
    private const int MaxCursors = 16384;
    private const int MaxOpenTables = 1024;
    private const int MaxVersionPages = 8192;
    private const int MaxIdleSessions = 64;
    private const int TableDensity = 80;

    private readonly object _writeLock = new();
    private readonly object _tablesLock = new();
    private readonly object _sessionsLock = new();
    private readonly Dictionary<string, EsentTable> _byName = new(StringComparer.Ordinal);
    private readonly List<EsentSession> _readSessions = [];
    private readonly ConcurrentBag<EsentSession> _idleSessions = [];
    private readonly string _databasePath;
    private EsentTable[] _tables = [];
    private nint _instance;
    private EsentSession? _ddlSession;
    private EsentSession? _writeSession;
    private bool _writing;
    private int _disposed;

    /// <summary>Opens (creating when missing) the ESENT database in <paramref name="folder"/>, running crash recovery.</summary>
    [SupportedOSPlatform("windows")]
    public EsentStorageEngine(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(folder));
        _databasePath = Path.Combine(root, DatabaseFileName);
        var logs = Path.Combine(root, "logs");
        var temp = Path.Combine(root, "temp");
        Directory.CreateDirectory(logs);
        Directory.CreateDirectory(temp);

        SetGlobalParameters();
        EsentErrors.Check(
            EsentNative.JetCreateInstance2(out _instance, "RavenLite-" + Guid.NewGuid().ToString("N"), "RavenLite", 0),
            "Creating the ESENT instance");
        try
        {
            // Directories end with a separator: ESENT takes a path without one as a file name.
            SetParameter(JetParam.SystemPath, 0, root + Path.DirectorySeparatorChar);
            SetParameter(JetParam.LogFilePath, 0, logs + Path.DirectorySeparatorChar);
            SetParameter(JetParam.TempPath, 0, temp + Path.DirectorySeparatorChar);
            SetParameter(JetParam.CreatePathIfNotExist, 1);
            SetParameter(JetParam.CircularLog, 1);
            SetParameter(JetParam.MaxSessions, MaxSessions);
            SetParameter(JetParam.MaxCursors, MaxCursors);
            SetParameter(JetParam.MaxOpenTables, MaxOpenTables);
            SetParameter(JetParam.MaxVerPages, MaxVersionPages);
            SetParameter(JetParam.NoInformationEvent, 1);
            // Crash recovery (JET_paramRecovery "On") is ESENT's default: JetInit replays the log.
            EsentErrors.Check(EsentNative.JetInit(ref _instance), $"Starting ESENT (and recovering) in '{root}'");
            _ddlSession = OpenDatabase();
        }
        catch
        {
            _ = Terminate(_instance);
            _instance = 0;
            throw;
        }
    }

    public StorageEngineKind Kind => StorageEngineKind.Esent;

    public StorageTable OpenTable(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        lock (_tablesLock)
        {
            ThrowIfDisposed();
            if (_byName.TryGetValue(name, out var existing))
                return existing.Handle;
            var esentName = EsentTable.EsentNameOf(name);
            var (keyColumn, valueColumn) = OpenOrCreateTable(_ddlSession!, esentName, name);
            var handle = new StorageTable(name, _tables.Length);
            var table = new EsentTable(handle, esentName, keyColumn, valueColumn);
            Volatile.Write(ref _tables, [.. _tables, table]);
            _byName.Add(name, table);
            return handle;
        }
    }

    public IReadTransaction BeginRead()
    {
        ThrowIfDisposed();
        var session = RentReadSession();
        try
        {
            session.Enter();
            try
            {
                session.BeginTransaction(JetBit.TransactionReadOnly);
            }
            finally
            {
                session.Exit();
            }
        }
        catch
        {
            Return(session, healthy: true);
            throw;
        }
        return new EsentReadTransaction(this, session);
    }

    /// <summary>The engine's record of a table handle; throws for one another engine gave out.</summary>
    internal EsentTable Resolve(StorageTable table)
    {
        ArgumentNullException.ThrowIfNull(table);
        var tables = Volatile.Read(ref _tables);
        if ((uint)table.Id < (uint)tables.Length && ReferenceEquals(tables[table.Id].Handle, table))
            return tables[table.Id];
        throw new ArgumentException($"Table '{table.Name}' was not opened by this engine.", nameof(table));
    }

    /// <summary>Takes back a read transaction's session: pooled while healthy and few, otherwise ended.</summary>
    internal void Return(EsentSession session, bool healthy)
    {
        if (session.Ended)
            return;
        if (healthy && Volatile.Read(ref _disposed) == 0 && _idleSessions.Count < MaxIdleSessions)
        {
            // Should Dispose run now, it ends this session too: it is still in _readSessions.
            _idleSessions.Add(session);
            return;
        }
        lock (session.Sync)
            _ = session.End(bindToThread: true);
        lock (_sessionsLock)
            _readSessions.Remove(session);
    }

    private EsentSession RentReadSession()
    {
        while (_idleSessions.TryTake(out var idle))
        {
            if (!idle.Ended)
                return idle;
        }
        var session = EsentSession.Begin(_instance, _databasePath, readOnly: true);
        lock (_sessionsLock)
        {
            if (Volatile.Read(ref _disposed) == 0)
            {
                _readSessions.Add(session);
                return session;
            }
        }
        _ = session.End(bindToThread: false);
        throw new ObjectDisposedException(nameof(EsentStorageEngine));
    }

    private unsafe void SetParameter(uint id, nint value, string? text = null)
    {
        var instance = _instance;
        EsentErrors.Check(EsentNative.JetSetSystemParameter(&instance, 0, id, value, text),
            $"Setting ESENT parameter {id}");
    }

    /// <summary>
    /// The page size is process-wide and can only be set before the first instance starts; a second engine
    /// in the process finds it set (by the first, to the same value) and goes on.
    /// </summary>
    private static unsafe void SetGlobalParameters()
    {
        var code = EsentNative.JetSetSystemParameter(null, 0, JetParam.DatabasePageSize, PageSize, null);
        if (code is not (JetErr.AlreadyInitialized or JetErr.SystemParamsAlreadySet))
            EsentErrors.Check(code, "Setting the ESENT database page size to 8 KiB");
    }

    /// <summary>Begins the engine's own session and attaches (or creates) the database in it.</summary>
    private EsentSession OpenDatabase()
    {
        EsentErrors.Check(EsentNative.JetBeginSession(_instance, out var sesid, null, null), "Beginning an ESENT session");
        try
        {
            uint dbid;
            if (File.Exists(_databasePath))
            {
                // JET_wrnDatabaseAttached (recovery left it attached) is fine.
                EsentErrors.Check(EsentNative.JetAttachDatabase(sesid, _databasePath, 0), $"Attaching '{_databasePath}'");
                EsentErrors.Check(EsentNative.JetOpenDatabase(sesid, _databasePath, null, out dbid, 0),
                    $"Opening '{_databasePath}'");
            }
            else
            {
                EsentErrors.Check(EsentNative.JetCreateDatabase(sesid, _databasePath, null, out dbid, 0),
                    $"Creating '{_databasePath}'");
            }
            return EsentSession.Adopt(sesid, dbid);
        }
        catch
        {
            _ = EsentNative.JetEndSession(sesid, 0);
            throw;
        }
    }

    /// <summary>Opens the ESENT table, creating it (in its own, durable transaction) when missing.</summary>
    /// <returns>The column ids of <c>k</c> and <c>v</c>.</returns>
    private static unsafe (uint Key, uint Value) OpenOrCreateTable(EsentSession ddl, string esentName, string name)
    {
        var code = EsentNative.JetOpenTable(ddl.Sesid, ddl.Dbid, esentName, null, 0, 0, out var tableid);
        if (code == JetErr.ObjectNotFound)
            tableid = CreateTable(ddl, esentName, name);
        else
            EsentErrors.Check(code, $"Opening table '{name}'");
        try
        {
            return (ColumnId(ddl, tableid, EsentTable.KeyColumnName, name),
                ColumnId(ddl, tableid, EsentTable.ValueColumnName, name));
        }
        finally
        {
            _ = EsentNative.JetCloseTable(ddl.Sesid, tableid);
        }
    }

    /// <returns>The new table, open.</returns>
    private static unsafe nint CreateTable(EsentSession ddl, string esentName, string name)
    {
        var sesid = ddl.Sesid;
        ddl.BeginTransaction(0);
        try
        {
            EsentErrors.Check(EsentNative.JetCreateTable(sesid, ddl.Dbid, esentName, 1, TableDensity, out var tableid),
                $"Creating table '{name}'");
            AddLongBinaryColumn(sesid, tableid, EsentTable.KeyColumnName, name);
            AddLongBinaryColumn(sesid, tableid, EsentTable.ValueColumnName, name);
            CreatePrimaryIndex(sesid, tableid, name);
            ddl.Commit(0);
            return tableid;
        }
        catch
        {
            // Also closes the table JetCreateTable opened.
            _ = ddl.Rollback();
            throw;
        }
    }

    private static unsafe void AddLongBinaryColumn(nint sesid, nint tableid, string column, string table)
    {
        var def = new JetColumnDef { Size = (uint)sizeof(JetColumnDef), Coltyp = JetColtyp.LongBinary };
        EsentErrors.Check(EsentNative.JetAddColumn(sesid, tableid, column, &def, null, 0, out _),
            $"Adding column '{column}' to table '{table}'");
    }

    /// <summary>
    /// The primary (clustered, unique, non-null) index on <c>+k</c>. cbKeyMost and cbVarSegMac of 2000 keep
    /// whole normalized keys (up to 1776 key bytes): no truncation, and <c>JET_bitIndexDisallowTruncation</c>
    /// makes a write fail rather than truncate should a key ever be longer.
    /// </summary>
    private static unsafe void CreatePrimaryIndex(nint sesid, nint tableid, string table)
    {
        const string key = "+" + EsentTable.KeyColumnName + "\0\0";
        fixed (char* indexName = EsentTable.IndexName)
        fixed (char* keyText = key)
        {
            var create = new JetIndexCreate
            {
                Size = (uint)sizeof(JetIndexCreate),
                IndexName = indexName,
                Key = keyText,
                KeySize = (uint)(key.Length * sizeof(char)),
                Grbit = JetBit.IndexPrimary | JetBit.IndexUnique | JetBit.IndexDisallowNull
                    | JetBit.IndexKeyMost | JetBit.IndexDisallowTruncation,
                Density = TableDensity,
                VarSegMacOrTupleLimits = (nint)JetLimits.KeyMost8KBytePage,
                KeyMost = JetLimits.KeyMost8KBytePage,
            };
            EsentErrors.Check(EsentNative.JetCreateIndex2(sesid, tableid, &create, 1),
                $"Creating the primary index of table '{table}'");
        }
    }

    private static unsafe uint ColumnId(EsentSession ddl, nint tableid, string column, string table)
    {
        var def = new JetColumnDef { Size = (uint)sizeof(JetColumnDef) };
        EsentErrors.Check(
            EsentNative.JetGetTableColumnInfo(ddl.Sesid, tableid, column, &def, (uint)sizeof(JetColumnDef), JetInfoLevel.ColInfo),
            $"Reading column '{column}' of table '{table}'");
        if (def.Coltyp != JetColtyp.LongBinary)
            throw new StorageCorruptedException(
                $"Column '{column}' of ESENT table '{table}' has type {def.Coltyp}, not long binary: not a RavenLite table.");
        return def.ColumnId;
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
