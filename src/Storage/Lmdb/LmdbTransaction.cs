using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>What read and write transactions share: reads, cursors and ending.</summary>
internal abstract unsafe class LmdbTransaction : IReadTransaction
{
    private readonly List<LmdbCursor> _cursors = [];
    private bool _ended;

    protected LmdbTransaction(LmdbStorageEngine engine, nint handle)
    {
        Engine = engine;
        Handle = handle;
    }

    protected LmdbStorageEngine Engine { get; }

    internal nint Handle { get; private set; }

    public bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        EnsureOpen();
        if (key.IsEmpty)
            throw new ArgumentException("A storage key cannot be empty.", nameof(key));
        fixed (byte* k = key)
        {
            var mk = new MdbVal(k, key.Length);
            var code = LmdbNative.Get(Handle, LmdbStorageEngine.Dbi(table), ref mk, out var data);
            if (code == MdbConstants.NotFound)
            {
                value = default;
                return false;
            }
            if (code != MdbConstants.Success) // the message is only built on failure: this runs on every read
                throw LmdbErrors.ToException(code, $"Reading table '{table.Name}'");
            value = data.AsSpan();
            return true;
        }
    }

    public IStorageCursor OpenCursor(StorageTable table)
    {
        EnsureOpen();
        LmdbErrors.Check(LmdbNative.CursorOpen(Handle, LmdbStorageEngine.Dbi(table), out var handle),
            $"Opening a cursor on '{table.Name}'");
        var cursor = new LmdbCursor(this, handle, table);
        _cursors.Add(cursor);
        return cursor;
    }

    internal void Forget(LmdbCursor cursor) => _cursors.Remove(cursor);

    protected void EnsureOpen() => ObjectDisposedException.ThrowIf(_ended, this);

    /// <summary>Closes cursors still open, then hands the handle to <paramref name="end"/> exactly once.</summary>
    protected bool End(Action<nint> end)
    {
        if (_ended)
            return false;
        _ended = true;
        foreach (var cursor in _cursors.ToArray())
            cursor.Dispose();
        var handle = Handle;
        Handle = 0;
        end(handle);
        return true;
    }

    public abstract void Dispose();
}
