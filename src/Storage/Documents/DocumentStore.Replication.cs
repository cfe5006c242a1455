namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// With an engine other servers share (PostgreSQL): whether its server is a primary or a read-only standby, and the
    /// standby's lag. Null with an engine of one process (LMDB, ESENT).
    /// </summary>
    public ReplicationStatus? GetReplicationStatus()
    {
        ThrowIfDisposed();
        return (Engine as ISharedStorageEngine)?.GetReplicationStatus();
    }
}
