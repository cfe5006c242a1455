using System.Net;
using System.Security.Cryptography;
using System.Text;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// With an API key configured, every request must carry it in <c>X-Api-Key</c> (compared in constant time),
/// else 401. Without one, the server answers only connections that arrived on a loopback address (403
/// otherwise), in case a listener was configured around <see cref="Hosting.ListenAddresses"/>. An address that sent more
/// than <see cref="RavenLiteServerOptions.AuthFailuresPerMinute"/> wrong or missing keys in a minute gets 429 for every
/// request until the minute is over, right key or not, so keys cannot be guessed at speed.
/// </summary>
internal sealed class ApiKeyMiddleware(RequestDelegate next, string? apiKey, FailedAuthentications failures)
{
    /// <summary>The request header carrying the key.</summary>
    public const string HeaderName = "X-Api-Key";

    private readonly byte[]? _expectedHash = string.IsNullOrEmpty(apiKey) ? null : Hash(apiKey);

    /// <summary>Checks the request, then runs the rest of the pipeline.</summary>
    public Task InvokeAsync(HttpContext context)
    {
        if (_expectedHash is null)
        {
            if (context.Connection.LocalIpAddress is { } local && !IPAddress.IsLoopback(local))
                throw RequestException.NotLoopback();
            return next(context);
        }
        var remote = context.Connection.RemoteIpAddress ?? IPAddress.None;
        if (failures.IsBlocked(remote))
            throw failures.Refusal(context);
        var given = context.Request.Headers[HeaderName];
        if (given.Count != 1 || !Matches(given.ToString()))
        {
            failures.Record(remote);
            throw RequestException.Unauthorized(given.Count == 0 ? $"Missing {HeaderName} header." : $"Wrong {HeaderName}.");
        }
        return next(context);
    }

    /// <summary>Compares hashes, so neither the content nor the length of the key leaks through timing.</summary>
    private bool Matches(string candidate) => CryptographicOperations.FixedTimeEquals(Hash(candidate), _expectedHash);

    private static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));
}
