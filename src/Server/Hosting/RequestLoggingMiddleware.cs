using System.Diagnostics;

namespace RavenLite.Server.Hosting;

/// <summary>One debug line per request: method, path, status and time taken.</summary>
internal sealed class RequestLoggingMiddleware(RequestDelegate next, ILogger logger)
{
    /// <summary>Times the rest of the pipeline and logs the outcome.</summary>
    public async Task InvokeAsync(HttpContext context)
    {
        if (!logger.IsEnabled(LogLevel.Debug))
        {
            await next(context);
            return;
        }
        var started = Stopwatch.GetTimestamp();
        try
        {
            await next(context);
        }
        finally
        {
            ServerLog.Request(logger, context.Request.Method, context.Request.Path, context.Response.StatusCode,
                Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }
    }
}
