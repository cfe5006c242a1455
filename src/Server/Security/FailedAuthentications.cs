using System.Globalization;
using System.Net;
using System.Threading.RateLimiting;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// ASP.NET Core's rate limiter (<see cref="PartitionedRateLimiter"/>, a fixed one-minute window per client address)
/// counting requests with a wrong or missing API key: once an address has used its
/// <see cref="RavenLiteServerOptions.AuthFailuresPerMinute"/>, its requests get 429 until the window ends (issue 30:
/// 13,000 wrong keys in 3 s met no limit).
/// </summary>
internal sealed class FailedAuthentications : IDisposable
{
    private static readonly TimeSpan s_window = TimeSpan.FromMinutes(1);
    private readonly PartitionedRateLimiter<IPAddress> _limiter;
    private readonly int _perMinute;

    /// <summary>Creates the limiter for <see cref="RavenLiteServerOptions.AuthFailuresPerMinute"/> failures per address and minute.</summary>
    public FailedAuthentications(RavenLiteServerOptions options)
    {
        _perMinute = options.AuthFailuresPerMinute;
        _limiter = PartitionedRateLimiter.Create<IPAddress, IPAddress>(address => RateLimitPartition.GetFixedWindowLimiter(address,
            _ => new FixedWindowRateLimiterOptions { PermitLimit = _perMinute, Window = s_window, QueueLimit = 0, AutoReplenishment = true }));
    }

    /// <summary>Whether <paramref name="address"/> has used up its failures for this window.</summary>
    public bool IsBlocked(IPAddress address) => _limiter.GetStatistics(address)?.CurrentAvailablePermits == 0;

    /// <summary>Counts one failure of <paramref name="address"/>.</summary>
    public void Record(IPAddress address)
    {
        using var lease = _limiter.AttemptAcquire(address);
    }

    /// <summary>The 429 for a blocked address, with <c>Retry-After</c> set as the response starts.</summary>
    public RequestException Refusal(HttpContext context)
    {
        // Set as the response starts: the error middleware clears the headers of a refused request first.
        context.Response.OnStarting(() =>
        {
            context.Response.Headers.RetryAfter = ((int)s_window.TotalSeconds).ToString(CultureInfo.InvariantCulture);
            return Task.CompletedTask;
        });
        return new RequestException(StatusCodes.Status429TooManyRequests, ErrorCodes.TooManyRequests,
            $"More than {_perMinute} requests with a wrong or missing {ApiKeyMiddleware.HeaderName} came from this address within a minute " +
            "(AuthFailuresPerMinute); its requests are refused until the minute is over.");
    }

    /// <inheritdoc />
    public void Dispose() => _limiter.Dispose();
}
