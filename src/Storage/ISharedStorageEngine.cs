namespace RavenLite.Storage;

/// <summary>
/// An engine whose database other processes write too (PostgreSQL shared by several RavenLite servers). It tells of
/// their commits, so that what a server keeps in memory (the last etag, its indexes) can catch up.
/// </summary>
public interface ISharedStorageEngine : IStorageEngine
{
    /// <summary>
    /// Raised on a background thread soon after another engine instance committed to the same database, and also
    /// now and then without a known commit (a poll, in case a wake-up was lost). It is a wake-up, not a change list:
    /// read the tables to learn what changed. Handlers must be quick.
    /// </summary>
    event Action? CommittedElsewhere;

    /// <summary>Reads where the database's server stands in its replication (a round trip; for statistics, not hot paths).</summary>
    ReplicationStatus GetReplicationStatus();
}
