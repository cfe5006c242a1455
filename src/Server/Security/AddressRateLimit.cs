using System.Globalization;
using System.Net;
using System.Threading.RateLimiting;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// ASP.NET Core's rate limiter as the server's limits use it: a fixed one-minute window of <c>perMinute</c> permits per
/// client address, and the 429 <c>too-many-requests</c> (with <c>Retry-After</c>) for an address that used them up.
/// </summary>
internal sealed class AddressRateLimit(int perMinute) : IDisposable
{
    private static readonly TimeSpan s_window = TimeSpan.FromMinutes(1);

    private readonly PartitionedRateLimiter<IPAddress> _limiter = PartitionedRateLimiter.Create<IPAddress, IPAddress>(address =>
        RateLimitPartition.GetFixedWindowLimiter(address,
            _ => new FixedWindowRateLimiterOptions { PermitLimit = perMinute, Window = s_window, QueueLimit = 0, AutoReplenishment = true }));

    /// <summary>The permits per address and minute.</summary>
    public int PerMinute => perMinute;

    /// <summary>Whether <paramref name="address"/> has used up this window's permits.</summary>
    public bool IsExhausted(IPAddress address) => _limiter.GetStatistics(address)?.CurrentAvailablePermits == 0;

    /// <summary>Takes one of <paramref name="address"/>'s permits; false when none was left.</summary>
    public bool TryAcquire(IPAddress address)
    {
        using var lease = _limiter.AttemptAcquire(address);
        return lease.IsAcquired;
    }

    /// <summary>The 429 saying <paramref name="message"/>, with <c>Retry-After</c> set as the response starts.</summary>
    public static RequestException Refusal(HttpContext context, string message)
    {
        // Set as the response starts: the error middleware clears the headers of a refused request first.
        context.Response.OnStarting(() =>
        {
            context.Response.Headers.RetryAfter = ((int)s_window.TotalSeconds).ToString(CultureInfo.InvariantCulture);
            return Task.CompletedTask;
        });
        return new RequestException(StatusCodes.Status429TooManyRequests, ErrorCodes.TooManyRequests, message);
    }

    /// <inheritdoc />
    public void Dispose() => _limiter.Dispose();
}
