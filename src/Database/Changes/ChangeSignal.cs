namespace RavenLite.Database;

/// <summary>
/// Wakes every changes feed after a commit: <see cref="Next"/> completes at the next <see cref="Pulse"/>. Read it before
/// reading the feed, so a commit in between is not missed.
/// </summary>
internal sealed class ChangeSignal
{
    private TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Next => Volatile.Read(ref _next).Task;

    public void Pulse(long etag) =>
        Interlocked.Exchange(ref _next, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
}
