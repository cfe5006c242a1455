using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// A cursor over one table: its own <c>JET_TABLEID</c> (a <c>JetDupCursor</c> of the session's), on the
/// primary index. <see cref="Key"/> and <see cref="Value"/> are read when first asked for, into buffers of the
/// cursor's that stay valid until the next move.
/// </summary>
/// <remarks>
/// The cursor tracks where it is itself rather than relying on where ESENT leaves a cursor after a failed
/// move: like LMDB's, an unpositioned cursor moves next to the first entry and previous to the last; one
/// that ran off the end stays there on <see cref="MoveNext"/> and comes back with <see cref="MovePrevious"/>.
/// </remarks>
[SupportedOSPlatform("windows")]
internal sealed class EsentCursor(EsentTransaction transaction, EsentTable table, nint tableid) : IStorageCursor
{
    private enum Position
    {
        Unpositioned,
        OnEntry,
        BeforeFirst,
        AfterLast,
    }

    private nint _tableid = tableid; // 0: the table is not in this snapshot, so it reads as empty.
    private bool _closed;
    private Position _position;
    private byte[] _keyBuffer = new byte[256];
    private byte[] _valueBuffer = new byte[1024];
    private int _keyLength = -1; // -1: not read since the last move.
    private int _valueLength = -1;

    public ReadOnlySpan<byte> Key
    {
        get
        {
            EnsureOnEntry();
            if (_keyLength < 0)
                _keyLength = Read(table.KeyColumn, ref _keyBuffer);
            return _keyBuffer.AsSpan(0, _keyLength);
        }
    }

    public ReadOnlySpan<byte> Value
    {
        get
        {
            EnsureOnEntry();
            if (_valueLength < 0)
                _valueLength = Read(table.ValueColumn, ref _valueBuffer);
            return _valueBuffer.AsSpan(0, _valueLength);
        }
    }

    public bool MoveFirst() => Move(JetMoveRows.First, Position.AfterLast);

    public bool MoveLast() => Move(JetMoveRows.Last, Position.BeforeFirst);

    public bool MoveNext() => _position switch
    {
        Position.OnEntry => Move(JetMoveRows.Next, Position.AfterLast),
        Position.AfterLast => Stay(),
        _ => MoveFirst(),
    };

    public bool MovePrevious() => _position switch
    {
        Position.OnEntry => Move(JetMoveRows.Previous, Position.BeforeFirst),
        Position.BeforeFirst => Stay(),
        _ => MoveLast(),
    };

    public bool Seek(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
            return MoveFirst();
        ObjectDisposedException.ThrowIf(_closed, this);
        Reset();
        if (_tableid == 0)
            return Landed(false, Position.AfterLast);
        // No stored key is longer than MaxKeySize, so for a longer probe, seek its prefix: the only stored
        // key at or after the prefix but before the probe is the prefix itself.
        var probe = key.Length > EsentRecord.MaxKeySize ? key[..EsentRecord.MaxKeySize] : key;
        transaction.EnterCall();
        try
        {
            var sesid = transaction.Session.Sesid;
            if (!EsentRecord.SeekGreaterOrEqual(sesid, _tableid, probe))
                return Landed(false, Position.AfterLast);
            _position = Position.OnEntry;
            if (probe.Length < key.Length)
            {
                _keyLength = EsentRecord.Retrieve(sesid, _tableid, table.KeyColumn, ref _keyBuffer, exact: false);
                if (_keyBuffer.AsSpan(0, _keyLength).SequenceEqual(probe))
                {
                    Reset();
                    return Landed(MoveRaw(JetMoveRows.Next), Position.AfterLast);
                }
            }
            return true;
        }
        finally
        {
            transaction.ExitCall();
        }
    }

    private bool Move(int rows, Position whenNone)
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        Reset();
        if (_tableid == 0)
            return Landed(false, whenNone);
        transaction.EnterCall();
        try
        {
            return Landed(MoveRaw(rows), whenNone);
        }
        finally
        {
            transaction.ExitCall();
        }
    }

    /// <summary>JetMove; false when there is no record there. The caller has entered the session.</summary>
    private bool MoveRaw(int rows)
    {
        var code = EsentNative.JetMove(transaction.Session.Sesid, _tableid, rows, 0);
        if (code == JetErr.NoCurrentRecord)
            return false;
        EsentErrors.Check(code, $"Moving a cursor on '{table.Name}'");
        return true;
    }

    private bool Landed(bool found, Position whenNone)
    {
        _position = found ? Position.OnEntry : _tableid == 0 ? Position.Unpositioned : whenNone;
        return found;
    }

    private bool Stay()
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        return false;
    }

    private void Reset()
    {
        _keyLength = -1;
        _valueLength = -1;
    }

    private int Read(uint column, ref byte[] buffer)
    {
        transaction.EnterCall();
        try
        {
            return EsentRecord.Retrieve(transaction.Session.Sesid, _tableid, column, ref buffer, exact: false);
        }
        finally
        {
            transaction.ExitCall();
        }
    }

    private void EnsureOnEntry()
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        if (_position != Position.OnEntry)
            throw new InvalidOperationException("The cursor is not on an entry.");
    }

    /// <summary>Closes the ESENT cursor; the caller has entered the session (or it has ended).</summary>
    internal void Close()
    {
        if (_closed)
            return;
        _closed = true;
        var tableid = _tableid;
        _tableid = 0;
        if (tableid != 0 && !transaction.Session.Ended)
            _ = EsentNative.JetCloseTable(transaction.Session.Sesid, tableid);
    }

    public void Dispose()
    {
        if (_closed)
            return;
        transaction.Forget(this);
        bool entered;
        try
        {
            transaction.EnterCall();
            entered = true;
        }
        catch (ObjectDisposedException)
        {
            // The transaction (and with it this cursor) is over, or the engine was disposed.
            entered = false;
        }
        try
        {
            if (entered)
                Close();
            else
                _closed = true;
        }
        finally
        {
            if (entered)
                transaction.ExitCall();
        }
    }
}
