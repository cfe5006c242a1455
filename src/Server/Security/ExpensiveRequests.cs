using System.Net;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// ASP.NET Core's rate limiter (a fixed one-minute window per client address) on the requests that make the database
/// search or rewrite a whole index, when <see cref="RavenLiteServerOptions.ExpensiveRequestsPerMinute"/> is set: index
/// queries (and more like this), patch and delete by query, index definitions (a rebuild) and backups. Off by default:
/// the query limits (<c>--query-timeout</c>, the multi-term bounds) bound what one request costs; this bounds how many
/// one client may start.
/// </summary>
internal sealed class ExpensiveRequests(RavenLiteServerOptions options) : IDisposable
{
    private readonly AddressRateLimit? _limit = options.ExpensiveRequestsPerMinute > 0 ? new AddressRateLimit(options.ExpensiveRequestsPerMinute) : null;

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
    public RequestException? Admit(HttpContext context, IPAddress address) =>
        _limit is null || _limit.TryAcquire(address)
            ? null
            : AddressRateLimit.Refusal(context,
                $"More than {_limit.PerMinute} index queries, set operations, index definitions or backups came from this address within a minute " +
                "(ExpensiveRequestsPerMinute); they are refused until the minute is over. Other requests are served.");

    /// <inheritdoc />
    public void Dispose() => _limit?.Dispose();
}
