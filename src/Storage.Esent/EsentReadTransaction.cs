using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// A read-only ESENT transaction (<c>JET_bitTransactionReadOnly</c>) on a pooled session: a snapshot, as
/// every ESENT transaction is. Values it returns are copies it owns. It may be used and disposed on another
/// thread than it began on, one thread at a time.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed class EsentReadTransaction(EsentStorageEngine engine, EsentSession session)
    : EsentTransaction(engine, session, bindToThread: true)
{
    public override void Dispose()
    {
        if (Ended)
            return;
        if (!Session.TryEnter())
        {
            // The engine was disposed and ended the session (and with it this transaction).
            EndAndCloseCursors();
            return;
        }
        var healthy = true;
        try
        {
            EndAndCloseCursors();
            try
            {
                // Nothing was written: committing just ends the snapshot; no need to wait for the log.
                Session.Commit(JetBit.CommitLazyFlush);
            }
            catch (IOException)
            {
                healthy = Session.Rollback() >= 0;
                throw;
            }
        }
        finally
        {
            Session.Exit();
            Engine.Return(Session, healthy);
        }
    }
}
