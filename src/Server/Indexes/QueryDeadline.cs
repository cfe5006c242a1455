using RavenLite.Server.Errors;

namespace RavenLite.Server.Indexes;

/// <summary>
/// The cancellation a query runs under: the client leaving (<c>RequestAborted</c>), the server stopping, or the
/// server's time limit (<see cref="RavenLiteServerOptions.QueryTimeout"/>, counted from when the request began, plus the
/// wait for non-stale results when one was asked for) passing, whichever comes first. The search observes it between
/// terms and blocks of matches, so nothing keeps running once the answer is no longer wanted.
/// </summary>
internal sealed class QueryDeadline : IDisposable
{
    private readonly CancellationTokenSource _timeout;
    private readonly CancellationTokenSource _linked;
    private readonly HttpContext _context;
    private readonly CancellationToken _stopping;
    private readonly TimeSpan _limit;

    private QueryDeadline(HttpContext context, TimeSpan limit, TimeProvider time, CancellationToken stopping)
    {
        _context = context;
        _stopping = stopping;
        _limit = limit;
        _timeout = new CancellationTokenSource(limit, time);
        _linked = CancellationTokenSource.CreateLinkedTokenSource(_timeout.Token, context.RequestAborted, stopping);
    }

    /// <summary>The token to run the query under.</summary>
    public CancellationToken Token => _linked.Token;

    /// <summary>Starts the clock for the query <paramref name="request"/> describes.</summary>
    public static QueryDeadline Start(HttpContext context, IndexQueryRequest request)
    {
        var services = context.RequestServices;
        var options = services.GetRequiredService<RavenLiteServerOptions>();
        var limit = TimeSpan.FromSeconds(options.QueryTimeout);
        if (request.Query.WaitForNonStaleResults)
            limit += request.Query.Timeout ?? options.Database.DefaultQueryWaitTimeout;
        return new QueryDeadline(context, limit, services.GetRequiredService<TimeProvider>(),
            services.GetRequiredService<IHostApplicationLifetime>().ApplicationStopping);
    }

    /// <summary>
    /// What a cancellation means for the client: the time limit passed (503 <see cref="ErrorCodes.QueryTimeout"/>) or the
    /// server is stopping (503 <see cref="ErrorCodes.Unavailable"/>); null when the client left (nobody to answer).
    /// </summary>
    public RequestException? Refusal()
    {
        if (_context.RequestAborted.IsCancellationRequested)
            return null;
        if (_stopping.IsCancellationRequested)
        {
            return new RequestException(StatusCodes.Status503ServiceUnavailable, ErrorCodes.Unavailable,
                "The server is shutting down; the query was stopped.");
        }
        return _timeout.IsCancellationRequested
            ? new RequestException(StatusCodes.Status503ServiceUnavailable, ErrorCodes.QueryTimeout,
                $"The query ran longer than the server's limit of {_limit.TotalSeconds:0.###} s (QueryTimeout, --query-timeout) and was stopped; " +
                "make it more selective, or ask for a smaller page.")
            : null;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _linked.Dispose();
        _timeout.Dispose();
    }
}
