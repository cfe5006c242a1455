using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// One ESENT session (<c>JET_SESID</c>) with the database open, and the tables it has opened (one
/// <c>JET_TABLEID</c> per table, kept for the session's life).
/// </summary>
/// <remarks>
/// <para>
/// A session is used by one thread at a time. ESENT also binds a session to the thread that began its
/// transaction; sessions of read transactions, which may end on another thread than they began on (after
/// an <c>await</c>), lift that with <see cref="Enter"/>/<see cref="Exit"/> around each call
/// (<c>JetSetSessionContext</c>), which also serializes callers on <see cref="Sync"/>.
/// </para>
/// <para>
/// <c>JetRollback</c> closes the tables opened during the transaction it rolls back, so
/// <see cref="Rollback"/> forgets those; tables opened in a transaction that commits stay open.
/// </para>
/// </remarks>
[SupportedOSPlatform("windows")]
internal sealed class EsentSession
{
    private static long s_lastContext;

    private readonly List<int> _openedInTransaction = [];
    private nint[] _tableids = [];
    private bool _inTransaction;

    private EsentSession(nint sesid, uint dbid, bool readOnly)
    {
        Sesid = sesid;
        Dbid = dbid;
        ReadOnly = readOnly;
        Context = (nint)Interlocked.Increment(ref s_lastContext);
    }

    public nint Sesid { get; }

    public uint Dbid { get; }

    /// <summary>Opens tables read-only; for read transactions.</summary>
    public bool ReadOnly { get; }

    /// <summary>Held around every call on the session by users of <see cref="Enter"/>, and by ending it.</summary>
    public object Sync { get; } = new();

    /// <summary>True once <see cref="End"/> ran; the handle is gone.</summary>
    public bool Ended { get; private set; }

    /// <summary>This session's <c>JetSetSessionContext</c> value (unique, never 0 or −1).</summary>
    private nint Context { get; }

    /// <summary>Wraps a session that already has the database open.</summary>
    public static EsentSession Adopt(nint sesid, uint dbid) => new(sesid, dbid, readOnly: false);

    /// <summary>Begins a session and opens the database in it.</summary>
    public static EsentSession Begin(nint instance, string databasePath, bool readOnly)
    {
        EsentErrors.Check(EsentNative.JetBeginSession(instance, out var sesid, null, null), "Beginning an ESENT session");
        try
        {
            EsentErrors.Check(EsentNative.JetOpenDatabase(sesid, databasePath, null, out var dbid, 0),
                $"Opening the database '{databasePath}'");
            return new EsentSession(sesid, dbid, readOnly);
        }
        catch
        {
            _ = EsentNative.JetEndSession(sesid, 0);
            throw;
        }
    }

    /// <summary>Scratch space for reading values; only the session's current user touches it.</summary>
    public byte[] Buffer { get; } = new byte[4096];

    /// <summary>
    /// Locks the session and associates it with this thread for the calls that follow, until
    /// <see cref="Exit"/>. Throws <see cref="ObjectDisposedException"/> when the session has ended (the
    /// engine was disposed).
    /// </summary>
    public void Enter()
    {
        if (!TryEnter())
            throw new ObjectDisposedException(nameof(EsentStorageEngine), "The ESENT engine was disposed.");
    }

    /// <summary>As <see cref="Enter"/>, but false (and not entered) when the session has ended.</summary>
    public bool TryEnter()
    {
        Monitor.Enter(Sync);
        try
        {
            if (Ended)
            {
                Monitor.Exit(Sync);
                return false;
            }
            EsentErrors.Check(EsentNative.JetSetSessionContext(Sesid, Context), "Binding an ESENT session to this thread");
            return true;
        }
        catch
        {
            Monitor.Exit(Sync);
            throw;
        }
    }

    /// <summary>
    /// Undoes <see cref="Enter"/>. Never throws (it runs in <c>finally</c> blocks); should resetting fail,
    /// the next <see cref="Enter"/> reports it.
    /// </summary>
    public void Exit()
    {
        if (!Ended)
            _ = EsentNative.JetResetSessionContext(Sesid);
        Monitor.Exit(Sync);
    }

    /// <summary>
    /// The session's cursor on <paramref name="table"/>, opened on first use; 0 when the table does not
    /// exist in this transaction's snapshot (it was created after the transaction began).
    /// </summary>
    public unsafe nint Table(EsentTable table)
    {
        var id = table.Id;
        if (id < _tableids.Length && _tableids[id] != 0)
            return _tableids[id];
        var code = EsentNative.JetOpenTable(
            Sesid, Dbid, table.EsentName, null, 0, ReadOnly ? JetBit.TableReadOnly : 0, out var tableid);
        if (code == JetErr.ObjectNotFound && _inTransaction)
            return 0;
        EsentErrors.Check(code, $"Opening table '{table.Name}'");
        if (id >= _tableids.Length)
            Array.Resize(ref _tableids, Math.Max(id + 1, _tableids.Length * 2));
        _tableids[id] = tableid;
        if (_inTransaction)
            _openedInTransaction.Add(id);
        return tableid;
    }

    public void BeginTransaction(uint grbit)
    {
        EsentErrors.Check(EsentNative.JetBeginTransaction2(Sesid, grbit), "Beginning a transaction");
        _inTransaction = true;
        _openedInTransaction.Clear();
    }

    public void Commit(uint grbit)
    {
        EsentErrors.Check(EsentNative.JetCommitTransaction(Sesid, grbit), "Committing the transaction");
        _inTransaction = false;
        _openedInTransaction.Clear();
    }

    /// <summary>Rolls the transaction back; returns ESENT's code rather than throwing.</summary>
    public int Rollback()
    {
        var code = EsentNative.JetRollback(Sesid, 0);
        if (code >= 0)
        {
            // ESENT closed them.
            foreach (var id in _openedInTransaction)
                _tableids[id] = 0;
            _openedInTransaction.Clear();
            _inTransaction = false;
        }
        return code;
    }

    /// <summary>
    /// Ends the session: rolls back a transaction still open, then <c>JetEndSession</c>, which closes its
    /// tables and database. Idempotent; the caller holds <see cref="Sync"/> when other threads may use it.
    /// </summary>
    /// <param name="bindToThread">Set the session context first (the session may be bound to another thread).</param>
    /// <returns>The first error, or 0.</returns>
    public int End(bool bindToThread)
    {
        if (Ended)
            return JetErr.Success;
        var bound = bindToThread && EsentNative.JetSetSessionContext(Sesid, Context) >= 0;
        var first = JetErr.Success;
        if (_inTransaction)
            first = Rollback();
        if (bound)
            _ = EsentNative.JetResetSessionContext(Sesid);
        var code = EsentNative.JetEndSession(Sesid, 0);
        Ended = true;
        _tableids = [];
        return first < 0 ? first : Math.Min(code, JetErr.Success);
    }
}
