using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>
/// Lets at most <see cref="RavenLiteServerOptions.MaxConcurrentLargeBodies"/> requests at a time hold a body larger
/// than <see cref="LargeBodyBytes"/> in memory, so N concurrent bodies near the 17 MiB limit cannot take N times that
/// (plus what parsing them costs). A request takes its permit before reading past <see cref="LargeBodyBytes"/> and keeps
/// it until its response is done, since the body stays in memory until then. Others wait, not reading (the client is
/// held back by TCP flow control); one that waits longer than <see cref="WaitLimit"/> gets 503 <c>unavailable</c>.
/// Smaller bodies, and requests without one, never wait.
/// </summary>
internal sealed class LargeBodyGate(RavenLiteServerOptions options, TimeProvider time) : IDisposable
{
    /// <summary>Bodies up to this size are read without a permit.</summary>
    public const int LargeBodyBytes = 1024 * 1024;

    /// <summary>The longest a request waits for a permit before it is refused.</summary>
    public static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The longest a request holding a permit may take to send the rest of its body (17 MiB in this time is about
    /// 145 KB/s): a client trickling a large body at Kestrel's minimum data rate would otherwise keep a permit for an
    /// hour, and a few such clients would keep every other large body waiting.
    /// </summary>
    public static readonly TimeSpan ReadLimit = TimeSpan.FromMinutes(2);

    private const string DeadlineItem = "RavenLite.LargeBodyDeadline";

    private const string HeldItem = "RavenLite.LargeBodyPermit";

    private readonly SemaphoreSlim _permits = new(options.MaxConcurrentLargeBodies, options.MaxConcurrentLargeBodies);

    /// <summary>Permits free now (for tests and diagnostics).</summary>
    public int Available => _permits.CurrentCount;

    /// <summary>Takes a permit for <paramref name="context"/>'s request, once; it is given back when the response is done.</summary>
    /// <exception cref="RequestException">503 <c>unavailable</c> after waiting <see cref="WaitLimit"/>.</exception>
    public async Task EnterAsync(HttpContext context)
    {
        if (context.Items.ContainsKey(HeldItem))
            return;
        if (!_permits.Wait(0))
        {
            using var timeout = new CancellationTokenSource(WaitLimit, time);
            using var wait = CancellationTokenSource.CreateLinkedTokenSource(timeout.Token, context.RequestAborted);
            try
            {
                await _permits.WaitAsync(wait.Token);
            }
            catch (OperationCanceledException) when (timeout.IsCancellationRequested && !context.RequestAborted.IsCancellationRequested)
            {
                context.Response.Headers.RetryAfter = "1";
                throw new RequestException(StatusCodes.Status503ServiceUnavailable, ErrorCodes.Unavailable,
                    $"Too many large request bodies at once (MaxConcurrentLargeBodies is {options.MaxConcurrentLargeBodies}); "
                    + $"waited {WaitLimit.TotalSeconds:0} s for a turn. Try again.");
            }
        }
        context.Items[HeldItem] = true;
        context.Response.RegisterForDispose(new Permit(_permits));
        var deadline = new CancellationTokenSource(ReadLimit, time);
        context.Items[DeadlineItem] = deadline;
        context.Response.RegisterForDispose(deadline);
    }

    /// <summary>Cancelled when the request's permit has been held for <see cref="ReadLimit"/>; none before it holds one.</summary>
    public static CancellationToken ReadDeadline(HttpContext context) =>
        context.Items.TryGetValue(DeadlineItem, out var deadline) && deadline is CancellationTokenSource source ? source.Token : CancellationToken.None;

    /// <summary>The 408 for a body that was still arriving when <see cref="ReadLimit"/> passed.</summary>
    public static RequestException TooSlow() => new(StatusCodes.Status408RequestTimeout, ErrorCodes.RequestTimeout,
        $"The request body was still arriving {ReadLimit.TotalSeconds:0} s after it was given one of the few turns large bodies take; nothing was written. Send it again.");

    /// <summary>Frees the semaphore (the container disposes the singleton when the server stops).</summary>
    public void Dispose() => _permits.Dispose();

    private sealed class Permit(SemaphoreSlim permits) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
                permits.Release();
        }
    }
}
