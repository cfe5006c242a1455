using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// The ESENT write transaction, driven by <see cref="EsentStorageEngine.Write{T}"/> on its caller's
/// thread. Reads see its own writes.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed class EsentWriteTransaction(EsentStorageEngine engine, EsentSession session)
    : EsentTransaction(engine, session, bindToThread: false), IWriteTransaction
{
    public void Put(StorageTable table, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var info = Engine.Resolve(table);
        EsentRecord.ValidateKeyForWrite(key, nameof(key));
        ObjectDisposedException.ThrowIf(Ended, this);
        var sesid = Session.Sesid;
        var tableid = TableForWrite(info);
        var exists = EsentRecord.SeekEqual(sesid, tableid, key);
        EsentErrors.Check(EsentNative.JetPrepareUpdate(sesid, tableid, exists ? JetPrep.Replace : JetPrep.Insert),
            $"Preparing a write to table '{info.Name}'");
        try
        {
            if (!exists)
                EsentRecord.SetColumn(sesid, tableid, info.KeyColumn, key);
            EsentRecord.SetColumn(sesid, tableid, info.ValueColumn, value);
            unsafe
            {
                EsentErrors.Check(EsentNative.JetUpdate(sesid, tableid, null, 0, null), $"Writing table '{info.Name}'");
            }
        }
        catch
        {
            _ = EsentNative.JetPrepareUpdate(sesid, tableid, JetPrep.Cancel);
            throw;
        }
    }

    public bool Delete(StorageTable table, ReadOnlySpan<byte> key)
    {
        var info = Engine.Resolve(table);
        ObjectDisposedException.ThrowIf(Ended, this);
        if (!EsentRecord.IsStorableKey(key, nameof(key)))
            return false;
        var sesid = Session.Sesid;
        var tableid = TableForWrite(info);
        if (!EsentRecord.SeekEqual(sesid, tableid, key))
            return false;
        EsentErrors.Check(EsentNative.JetDelete(sesid, tableid), $"Deleting from table '{info.Name}'");
        return true;
    }

    private nint TableForWrite(EsentTable info)
    {
        var tableid = Session.Table(info);
        if (tableid == 0)
            throw new InvalidOperationException(
                $"Table '{info.Name}' was created after this write transaction began; open tables before writing.");
        return tableid;
    }

    /// <summary>Closes the cursors still open and commits; on failure the transaction is still open.</summary>
    internal void Commit(CommitMode mode)
    {
        EndAndCloseCursors();
        Session.Commit(mode == CommitMode.Lazy ? JetBit.CommitLazyFlush : 0);
    }

    /// <summary>Closes the cursors still open and rolls back; returns ESENT's code rather than throwing.</summary>
    internal int Abort()
    {
        EndAndCloseCursors();
        return Session.Rollback();
    }

    /// <summary>Only <see cref="EsentStorageEngine.Write{T}"/> ends the transaction; disposing it does nothing.</summary>
    public override void Dispose()
    {
    }
}
