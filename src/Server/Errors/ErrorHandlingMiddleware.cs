using RavenLite.Server.Hosting;
using RavenLite.Storage;

namespace RavenLite.Server.Errors;

/// <summary>
/// Catches every exception a request throws, answers with the problem details from
/// <see cref="ErrorMapping"/>, and logs it once. No stack trace leaves the server, and no request can take
/// the process down.
/// </summary>
internal sealed class ErrorHandlingMiddleware(RequestDelegate next, ILogger logger)
{
    /// <summary>Runs the rest of the pipeline, turning exceptions into problem details responses.</summary>
    public async Task InvokeAsync(HttpContext context)
    {
        try
        {
            await next(context);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            ServerLog.RequestAborted(logger, context.Request.Method, context.Request.Path);
        }
        catch (Exception exception) // the last line of defence: every exception becomes a response, never a crash
        {
            await RespondAsync(context, exception);
        }
    }

    private async Task RespondAsync(HttpContext context, Exception exception)
    {
        var (problem, unexpected) = ErrorMapping.Map(exception);
        var request = context.Request;
        if (unexpected)
            ServerLog.UnexpectedError(logger, exception, request.Method, request.Path);
        else
            ServerLog.RequestRefused(logger, request.Method, request.Path, problem.Status!.Value, problem.Detail!);

        if (context.Response.HasStarted)
        {
            // Part of a streamed body is already out: the only honest signal left is to cut the connection.
            context.Abort();
            return;
        }
        context.Response.Clear();
        if (exception is StorageUnavailableException { ReadOnly: false })
            context.Response.Headers.RetryAfter = "1"; // a failover takes seconds; the client's retry is the rule in ErrorCodes
        await ErrorResponse.WriteAsync(context, problem);
    }
}
