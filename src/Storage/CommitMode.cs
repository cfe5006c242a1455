namespace RavenLite.Storage;

/// <summary>How a write transaction reaches the disk when it commits.</summary>
public enum CommitMode
{
    /// <summary>The commit is flushed to stable storage (fsync) before it returns. The default.</summary>
    Durable = 0,

    /// <summary>
    /// The commit returns without waiting for the flush; a crash of the process may lose it, never the store. The next
    /// durable commit that writes something flushes it. On LMDB this is <c>MDB_NOSYNC</c>: after a crash of the machine
    /// (power, kernel) LMDB only promises an intact store on file systems that keep write order, so use it for data
    /// that can be rebuilt (docs/reliability.md).
    /// </summary>
    Lazy = 1,

    /// <summary>
    /// For a run of commits that is acknowledged once, at its end (a bulk insert): the commit's data is flushed to
    /// stable storage before it returns, but the write that makes it the store's current state is not waited for. The
    /// next commit's flush makes it durable, so a run of pipelined commits ended by a <see cref="Durable"/> one waits for
    /// about one flush a commit instead of two. A crash may lose pipelined commits not yet followed by a durable one
    /// (on LMDB only the latest of them); it never corrupts the store or loses a durable commit. When the closing
    /// durable commit returns, every commit before it is durable; it must write something (every document write does:
    /// LMDB skips the syncs of a transaction that wrote nothing). Closing the store makes the run durable too. Engines
    /// that have no such step (ESENT, PostgreSQL) commit it as <see cref="Durable"/>.
    /// </summary>
    Pipelined = 2,
}
