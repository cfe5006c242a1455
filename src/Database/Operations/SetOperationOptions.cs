namespace RavenLite.Database;

/// <summary>How a patch or delete by query runs (<see cref="DocumentDatabase.PatchByQuery"/>, <see cref="DocumentDatabase.DeleteByQuery"/>).</summary>
public sealed class SetOperationOptions
{
    /// <summary>The most documents one write transaction changes: 1,024 by default.</summary>
    public const int DefaultBatchSize = 1024;

    /// <summary>
    /// Whether a stale index (one that has not yet indexed every write) may answer. False (the default): the operation
    /// is refused with <see cref="IndexStaleException"/>, since the index may match documents that no longer match, or
    /// miss ones that now do.
    /// </summary>
    public bool AllowStale { get; init; }

    /// <summary>
    /// What a document the patch refuses (a <c>test</c> that fails, a path that does not fit) does to the operation.
    /// False (the default): it is left as it is, reported in <see cref="SetOperationStatus.Failures"/>, and the
    /// operation goes on. True: the operation stops there; the documents before it in its batch are committed, it and
    /// the ones after are not changed, and the state is <see cref="SetOperationState.Stopped"/>.
    /// </summary>
    public bool StopOnFailure { get; init; }

    /// <summary>How many documents each write transaction changes, 1 to 10,000; <see cref="DefaultBatchSize"/> by default.</summary>
    public int BatchSize { get; init; } = DefaultBatchSize;

    /// <summary>Told the status after every committed batch, on the operation's thread (keep it short).</summary>
    public IProgress<SetOperationStatus>? Progress { get; init; }

    internal void Validate()
    {
        if (BatchSize is < 1 or > 10_000)
            throw new ArgumentOutOfRangeException(nameof(BatchSize), BatchSize, "BatchSize must be from 1 to 10,000 documents.");
    }
}
