using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>The LMDB write transaction, driven by <see cref="LmdbStorageEngine.Write{T}"/>.</summary>
internal sealed unsafe class LmdbWriteTransaction(LmdbStorageEngine engine, nint handle)
    : LmdbTransaction(engine, handle), IWriteTransaction
{
    public void Put(StorageTable table, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        EnsureOpen();
        if (key.IsEmpty)
            throw new ArgumentException("A storage key cannot be empty.", nameof(key));
        fixed (byte* k = key)
        fixed (byte* v = value)
        {
            var mk = new MdbVal(k, key.Length);
            var mv = new MdbVal(v, value.Length);
            LmdbErrors.Check(LmdbNative.Put(Handle, LmdbStorageEngine.Dbi(table), ref mk, ref mv, 0),
                $"Writing table '{table.Name}'");
        }
    }

    public bool Delete(StorageTable table, ReadOnlySpan<byte> key)
    {
        EnsureOpen();
        if (key.IsEmpty)
            throw new ArgumentException("A storage key cannot be empty.", nameof(key));
        fixed (byte* k = key)
        {
            var mk = new MdbVal(k, key.Length);
            var code = LmdbNative.Del(Handle, LmdbStorageEngine.Dbi(table), ref mk, 0);
            if (code == MdbConstants.NotFound)
                return false;
            if (code != MdbConstants.Success) // the message is only built on failure: this runs on every delete
                throw LmdbErrors.ToException(code, $"Deleting from table '{table.Name}'");
            return true;
        }
    }

    /// <summary>Commits; LMDB frees the transaction whether or not the commit succeeds.</summary>
    internal int Commit()
    {
        var code = MdbConstants.Success;
        End(h => code = LmdbNative.TxnCommit(h));
        return code;
    }

    public override void Dispose() => End(LmdbNative.TxnAbort);
}
