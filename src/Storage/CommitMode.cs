namespace RavenLite.Storage;

/// <summary>How a write transaction reaches the disk when it commits.</summary>
public enum CommitMode
{
    /// <summary>The commit is flushed to stable storage (fsync) before it returns. The default.</summary>
    Durable = 0,

    /// <summary>
    /// The commit returns without waiting for the flush; a crash may lose it (never corrupt the store).
    /// The next durable commit flushes it.
    /// </summary>
    Lazy = 1,
}
