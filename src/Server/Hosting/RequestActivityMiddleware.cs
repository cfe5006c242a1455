using System.Diagnostics;
using RavenLite.Indexing;

namespace RavenLite.Server.Hosting;

/// <summary>
/// A <c>ravenlite.request</c> span per HTTP request on the <c>RavenLite</c> <see cref="ActivitySource"/>, around
/// everything the server does for it (the query's own <c>ravenlite.query</c> span nests inside). The source creates
/// no activity unless a listener (OpenTelemetry) is attached, so without one this costs a null check.
/// </summary>
internal sealed class RequestActivityMiddleware(RequestDelegate next)
{
    private static readonly ActivitySource Source = new(QueryTelemetry.SourceName);

    public async Task InvokeAsync(HttpContext context)
    {
        using var activity = Source.StartActivity("ravenlite.request", ActivityKind.Server);
        if (activity is null)
        {
            await next(context);
            return;
        }
        activity.SetTag("http.request.method", context.Request.Method);
        activity.SetTag("url.path", context.Request.Path.Value);
        activity.SetTag("url.query", context.Request.QueryString.Value);
        await next(context);
        activity.SetTag("http.response.status_code", context.Response.StatusCode);
    }
}
