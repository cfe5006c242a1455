namespace RavenLite.Database;

/// <summary>
/// A patch or delete by query running on a thread of its own: its <see cref="Status"/> while it runs, a task that
/// completes with the final status, and <see cref="Cancel"/>. Each batch of documents is one write transaction, so a
/// cancelled, stopped or killed operation leaves every document either fully changed or as it was.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001", Justification = "Its CancellationTokenSource is disposed when the operation finishes; callers never own it.")]
public sealed class SetOperation
{
    private readonly object _lock = new();
    private readonly CancellationTokenSource _cancel = new();
    private readonly List<SetOperationFailure> _failures = [];
    private SetOperationStatus _status;

    internal SetOperation(long id, SetOperationKind kind, string indexName, string? query, int matched, DateTimeOffset startedAt)
    {
        _status = new SetOperationStatus(id, kind, indexName, query, SetOperationState.Running, matched, 0, 0, 0, [], startedAt, null, null);
    }

    /// <summary>The operation's id, unique while the database is open.</summary>
    public long Id => _status.Id;

    /// <summary>A snapshot of its progress, or its outcome once finished.</summary>
    public SetOperationStatus Status
    {
        get
        {
            lock (_lock)
                return _status;
        }
    }

    /// <summary>Completes with the final status when the operation finishes, however it ends (never faults).</summary>
    public Task<SetOperationStatus> Completion => Finished.Task;

    internal TaskCompletionSource<SetOperationStatus> Finished { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    internal CancellationToken CancellationToken => _cancel.Token;

    /// <summary>
    /// Asks the operation to stop before its next batch: the batch being written is committed whole, the rest are not
    /// started, and the state becomes <see cref="SetOperationState.Cancelled"/>. Nothing happens once it has finished.
    /// </summary>
    public void Cancel()
    {
        try
        {
            _cancel.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // Finished already.
        }
    }

    /// <summary>Waits for the operation to finish and returns its final status.</summary>
    /// <param name="timeout">How long to wait; null: as long as it takes.</param>
    /// <param name="cancellationToken">Stops the wait (not the operation).</param>
    /// <exception cref="TimeoutException">It had not finished within <paramref name="timeout"/>.</exception>
    public Task<SetOperationStatus> WaitAsync(TimeSpan? timeout = null, CancellationToken cancellationToken = default) =>
        timeout is { } limit ? Completion.WaitAsync(limit, cancellationToken) : Completion.WaitAsync(cancellationToken);

    internal SetOperationStatus BatchDone(int processed, int changed, IEnumerable<SetOperationFailure> failures)
    {
        lock (_lock)
        {
            var failed = _status.FailedCount;
            foreach (var failure in failures)
            {
                failed++;
                if (_failures.Count < SetOperationStatus.MaxListedFailures)
                    _failures.Add(failure);
            }
            return _status = _status with
            {
                Processed = _status.Processed + processed, Changed = _status.Changed + changed, FailedCount = failed,
                Failures = [.. _failures],
            };
        }
    }

    internal SetOperationStatus Finish(SetOperationState state, DateTimeOffset at, string? error)
    {
        SetOperationStatus final;
        lock (_lock)
            final = _status = _status with { State = state, FinishedAt = at, Error = error };
        _cancel.Dispose();
        Finished.TrySetResult(final);
        return final;
    }
}
