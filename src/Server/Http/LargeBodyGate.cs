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
    }

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
