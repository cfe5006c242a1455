using System.Globalization;
using System.Net;
using System.Threading.RateLimiting;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// ASP.NET Core's rate limiter (a fixed one-minute window per client address) on the requests that make the database
/// search or rewrite a whole index, when <see cref="RavenLiteServerOptions.ExpensiveRequestsPerMinute"/> is set: index
/// queries (and more like this), patch and delete by query, index definitions (a rebuild) and backups. Off by default:
/// the query limits (<c>--query-timeout</c>, the multi-term bounds) bound what one request costs; this bounds how many
/// one client may start.
/// </summary>
internal sealed class ExpensiveRequests : IDisposable
{
    private static readonly TimeSpan s_window = TimeSpan.FromMinutes(1);
    private readonly PartitionedRateLimiter<IPAddress>? _limiter;
    private readonly int _perMinute;

    /// <summary>Creates the limiter for <see cref="RavenLiteServerOptions.ExpensiveRequestsPerMinute"/> requests per address and minute (none when 0).</summary>
    public ExpensiveRequests(RavenLiteServerOptions options)
    {
        _perMinute = options.ExpensiveRequestsPerMinute;
        if (_perMinute > 0)
        {
            _limiter = PartitionedRateLimiter.Create<IPAddress, IPAddress>(address => RateLimitPartition.GetFixedWindowLimiter(address,
                _ => new FixedWindowRateLimiterOptions { PermitLimit = _perMinute, Window = s_window, QueueLimit = 0, AutoReplenishment = true }));
        }
    }

    /// <summary>Whether <paramref name="request"/> is one the limit counts, decided from its method and path only.</summary>
    public static bool IsExpensive(HttpRequest request)
    {
        var path = request.Path;
        var method = request.Method;
        if (path.StartsWithSegments("/indexes", StringComparison.OrdinalIgnoreCase, out var rest) && rest.HasValue && rest.Value!.Length > 1)
            return HttpMethods.IsPut(method) || ((HttpMethods.IsGet(method) || HttpMethods.IsHead(method)) && !IsDefinitionRead(request));
        if (path.StartsWithSegments("/bulk_docs", StringComparison.OrdinalIgnoreCase, out var index) && index.HasValue && index.Value!.Length > 1)
            return HttpMethods.IsPatch(method) || HttpMethods.IsDelete(method);
        return HttpMethods.IsPost(method) && path.Equals("/admin/backup", StringComparison.OrdinalIgnoreCase);
    }

    private static bool IsDefinitionRead(HttpRequest request) =>
        request.Query["definition"].ToString() is { Length: > 0 } value
        && (value.Equals("yes", StringComparison.OrdinalIgnoreCase) || value.Equals("true", StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// Counts an expensive request of <paramref name="address"/>; null when it may go on, else the 429 to answer (with
    /// <c>Retry-After</c> set as the response starts).
    /// </summary>
    public RequestException? Admit(HttpContext context, IPAddress address)
    {
        if (_limiter is null)
            return null;
        using var lease = _limiter.AttemptAcquire(address);
        if (lease.IsAcquired)
            return null;
        // Set as the response starts: the error middleware clears the headers of a refused request first.
        context.Response.OnStarting(() =>
        {
            context.Response.Headers.RetryAfter = ((int)s_window.TotalSeconds).ToString(CultureInfo.InvariantCulture);
            return Task.CompletedTask;
        });
        return new RequestException(StatusCodes.Status429TooManyRequests, ErrorCodes.TooManyRequests,
            $"More than {_perMinute} index queries, set operations, index definitions or backups came from this address within a minute " +
            "(ExpensiveRequestsPerMinute); they are refused until the minute is over. Other requests are served.");
    }

    /// <inheritdoc />
    public void Dispose() => _limiter?.Dispose();
}
