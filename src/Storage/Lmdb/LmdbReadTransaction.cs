using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>A read-only LMDB snapshot. Readers never block writers or each other.</summary>
internal sealed class LmdbReadTransaction(LmdbStorageEngine engine, nint handle)
    : LmdbTransaction(engine, handle)
{
    public override void Dispose()
    {
        if (End(LmdbNative.TxnAbort))
            Engine.Gate.Exit();
    }
}
