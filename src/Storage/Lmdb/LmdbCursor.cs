using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>An LMDB cursor; keys and values are spans into the map.</summary>
internal sealed unsafe class LmdbCursor(LmdbTransaction transaction, nint handle, StorageTable table) : IStorageCursor
{
    private nint _handle = handle;
    private MdbVal _key;
    private MdbVal _value;
    private bool _positioned;

    public ReadOnlySpan<byte> Key => Current(_key);

    public ReadOnlySpan<byte> Value => Current(_value);

    public bool MoveFirst() => Move(MdbCursorOp.First);

    public bool MoveLast() => Move(MdbCursorOp.Last);

    // LMDB starts an unpositioned cursor at the first (or, backwards, the last) entry.
    public bool MoveNext() => Move(MdbCursorOp.Next);

    public bool MovePrevious() => Move(MdbCursorOp.Prev);

    public bool Seek(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
            return MoveFirst();
        fixed (byte* k = key)
        {
            _key = new MdbVal(k, key.Length);
            return Move(MdbCursorOp.SetRange);
        }
    }

    private bool Move(MdbCursorOp op)
    {
        ObjectDisposedException.ThrowIf(_handle == 0, this);
        var code = LmdbNative.CursorGet(_handle, ref _key, ref _value, op);
        if (code == MdbConstants.NotFound)
        {
            _positioned = false;
            _key = default;
            _value = default;
            return false;
        }
        if (code != MdbConstants.Success) // the message is only built on failure: this runs on every step
            throw LmdbErrors.ToException(code, $"Moving a cursor on '{table.Name}'");
        _positioned = true;
        return true;
    }

    private ReadOnlySpan<byte> Current(MdbVal val)
    {
        if (!_positioned)
            throw new InvalidOperationException("The cursor is not on an entry.");
        return val.AsSpan();
    }

    public void Dispose()
    {
        if (_handle == 0)
            return;
        LmdbNative.CursorClose(_handle);
        _handle = 0;
        transaction.Forget(this);
    }
}
