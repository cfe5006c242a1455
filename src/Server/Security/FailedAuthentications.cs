using System.Net;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// Counts requests with a wrong or missing API key per client address (<see cref="AddressRateLimit"/>): once an address
/// has used its <see cref="RavenLiteServerOptions.AuthFailuresPerMinute"/>, its requests get 429 until the window ends
/// (issue 30: 13,000 wrong keys in 3 s met no limit).
/// </summary>
internal sealed class FailedAuthentications(RavenLiteServerOptions options) : IDisposable
{
    private readonly AddressRateLimit _limit = new(options.AuthFailuresPerMinute);

    /// <summary>Whether <paramref name="address"/> has used up its failures for this window.</summary>
    public bool IsBlocked(IPAddress address) => _limit.IsExhausted(address);

    /// <summary>Counts one failure of <paramref name="address"/>.</summary>
    public void Record(IPAddress address) => _limit.TryAcquire(address);

    /// <summary>The 429 for a blocked address, with <c>Retry-After</c> set as the response starts.</summary>
    public RequestException Refusal(HttpContext context) => AddressRateLimit.Refusal(context,
        $"More than {_limit.PerMinute} requests with a wrong or missing {ApiKeyMiddleware.HeaderName} came from this address within a minute " +
        "(AuthFailuresPerMinute); its requests are refused until the minute is over.");

    /// <inheritdoc />
    public void Dispose() => _limit.Dispose();
}
