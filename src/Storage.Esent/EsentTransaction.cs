using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>What read and write transactions share: reads, cursors and the session they run on.</summary>
[SupportedOSPlatform("windows")]
internal abstract class EsentTransaction : IReadTransaction
{
    private readonly List<EsentCursor> _cursors = [];
    private readonly bool _bindToThread;

    /// <remarks><c>bindToThread</c>: Enter the session (lock it and set its context) around every call: for read transactions, which may move between threads. The write transaction runs on its caller's thread and does not need it.</remarks>
    protected EsentTransaction(EsentStorageEngine engine, EsentSession session, bool bindToThread)
    {
        Engine = engine;
        Session = session;
        _bindToThread = bindToThread;
    }

    protected EsentStorageEngine Engine { get; }

    internal EsentSession Session { get; }

    protected bool Ended { get; private set; }

    public bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var info = Engine.Resolve(table);
        value = default;
        if (!EsentRecord.IsStorableKey(key, nameof(key)))
            return false;
        EnterCall();
        try
        {
            var tableid = Session.Table(info);
            if (tableid == 0 || !EsentRecord.SeekEqual(Session.Sesid, tableid, key))
                return false;
            // A fresh array per value: the span must stay valid until the transaction ends.
            var scratch = Session.Buffer;
            var buffer = scratch;
            var length = EsentRecord.Retrieve(Session.Sesid, tableid, info.ValueColumn, ref buffer, exact: true);
            value = !ReferenceEquals(buffer, scratch) && buffer.Length == length
                ? buffer
                : buffer.AsSpan(0, length).ToArray();
            return true;
        }
        finally
        {
            ExitCall();
        }
    }

    public IStorageCursor OpenCursor(StorageTable table)
    {
        var info = Engine.Resolve(table);
        EnterCall();
        try
        {
            var tableid = Session.Table(info);
            nint cursorid = 0;
            if (tableid != 0)
                EsentErrors.Check(EsentNative.JetDupCursor(Session.Sesid, tableid, out cursorid, 0),
                    $"Opening a cursor on '{info.Name}'");
            var cursor = new EsentCursor(this, info, cursorid);
            _cursors.Add(cursor);
            return cursor;
        }
        finally
        {
            ExitCall();
        }
    }

    /// <summary>Starts a call on the session; pair with <see cref="ExitCall"/> in a <c>finally</c>.</summary>
    internal void EnterCall()
    {
        ObjectDisposedException.ThrowIf(Ended, this);
        if (_bindToThread)
            Session.Enter();
    }

    internal void ExitCall()
    {
        if (_bindToThread)
            Session.Exit();
    }

    internal void Forget(EsentCursor cursor) => _cursors.Remove(cursor);

    /// <summary>Marks the transaction ended and closes the cursors still open; the caller has entered the session.</summary>
    protected void EndAndCloseCursors()
    {
        Ended = true;
        foreach (var cursor in _cursors.ToArray())
            cursor.Close();
        _cursors.Clear();
    }

    public abstract void Dispose();
}
