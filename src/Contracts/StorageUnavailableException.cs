namespace RavenLite;

/// <summary>
/// The storage could not be reached, or is read-only: a shared engine lost its server (PostgreSQL restarting, failing
/// over to a standby, or unreachable), or it runs on a read-only standby. The database stays open and the same call
/// succeeds once the storage answers again (for a failover, within seconds of the promotion); no restart is needed.
/// </summary>
/// <remarks>
/// When <see cref="OutcomeUnknown"/> is false, nothing of the write was stored. When it is true the connection was
/// lost while the commit was on its way, and the write may or may not have been stored: retry it with the expected
/// etag it was first sent with (for a new document, "must not exist"), so that a retry of a write that was stored is
/// refused as a concurrency conflict instead of being applied twice.
/// </remarks>
public sealed class StorageUnavailableException : IOException
{
    /// <summary>Creates the exception with a message saying what failed.</summary>
    public StorageUnavailableException(string message, bool readOnly, bool outcomeUnknown, Exception? inner = null)
        : base(message, inner)
    {
        ReadOnly = readOnly;
        OutcomeUnknown = outcomeUnknown;
    }

    /// <summary>True when the storage answered but refuses writes (a read-only standby): retrying here will not help.</summary>
    public bool ReadOnly { get; }

    /// <summary>True when a commit was sent and no answer came back: the write may have been stored.</summary>
    public bool OutcomeUnknown { get; }
}
