using Microsoft.AspNetCore.Http.Features;
using Microsoft.Net.Http.Headers;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// Keeps web pages the user happens to open away from the server. A page can send "simple" requests to
/// 127.0.0.1 without asking (no preflight), and DNS rebinding lets it read the answers under its own name. So:
/// the Host must be a loopback name or configured (<c>--allowed-hosts</c>); a request from another origin
/// (<c>Origin</c> not the server's own, or <c>Sec-Fetch-Site: cross-site</c>) is refused unless its origin is
/// configured (<c>--cors-origins</c>), which then gets proper CORS answers, preflight included; and a body must be
/// declared <c>application/json</c>, which a page can only send cross-site after a preflight.
/// </summary>
internal sealed class BrowserGuardMiddleware(RequestDelegate next, BrowserSettings settings)
{
    private const string AllowedMethods = "GET, HEAD, PUT, POST, PATCH, DELETE";
    private const string ExposedHeaders = "ETag, Location";

    /// <summary>Checks the request, answers a CORS preflight, or runs the rest of the pipeline.</summary>
    public Task InvokeAsync(HttpContext context)
    {
        var request = context.Request;
        if (settings.ChecksHost && !settings.IsAllowedHost(request.Host.Host))
            throw RequestException.HostNotAllowed(request.Host.Value ?? "");

        var origin = request.Headers.Origin.ToString();
        var corsOrigin = origin.Length > 0 && !IsSameOrigin(request, origin) ? BrowserSettings.NormalizeOrigin(origin) : null;
        if (corsOrigin is not null && settings.CorsOrigins.Contains(corsOrigin))
        {
            if (IsPreflight(request))
                return AnswerPreflight(context, origin);
            context.Response.OnStarting(() =>
            {
                AddCorsHeaders(context.Response, origin);
                context.Response.Headers.AccessControlExposeHeaders = ExposedHeaders;
                return Task.CompletedTask;
            });
        }
        else if (origin.Length > 0 && !IsSameOrigin(request, origin))
        {
            throw RequestException.CrossSite($"Origin '{origin}'");
        }
        else if (request.Headers["Sec-Fetch-Site"].ToString().Equals("cross-site", StringComparison.OrdinalIgnoreCase))
        {
            throw RequestException.CrossSite("A cross-site request (Sec-Fetch-Site: cross-site)");
        }

        if (HasBody(context) && !IsJson(request.ContentType))
            throw RequestException.NotJson(request.ContentType);
        return next(context);
    }

    /// <summary>The media type of a JSON Patch document (RFC 6902).</summary>
    public const string JsonPatchMediaType = "application/json-patch+json";

    private static bool IsSameOrigin(HttpRequest request, string origin) =>
        origin.Equals($"{request.Scheme}://{request.Host.Value}", StringComparison.OrdinalIgnoreCase);

    private static bool IsPreflight(HttpRequest request) =>
        HttpMethods.IsOptions(request.Method) && request.Headers.AccessControlRequestMethod.Count > 0;

    private static Task AnswerPreflight(HttpContext context, string origin)
    {
        var response = context.Response;
        AddCorsHeaders(response, origin);
        response.Headers.AccessControlAllowMethods = AllowedMethods;
        if (context.Request.Headers.AccessControlRequestHeaders.Count > 0)
            response.Headers.AccessControlAllowHeaders = context.Request.Headers.AccessControlRequestHeaders;
        response.Headers.AccessControlMaxAge = "600";
        response.StatusCode = StatusCodes.Status204NoContent;
        return Task.CompletedTask;
    }

    private static void AddCorsHeaders(HttpResponse response, string origin)
    {
        response.Headers.AccessControlAllowOrigin = origin;
        response.Headers.Append(HeaderNames.Vary, HeaderNames.Origin);
    }

    private static bool HasBody(HttpContext context) =>
        context.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody ?? context.Request.ContentLength > 0;

    /// <summary>
    /// <c>application/json</c> (or <c>application/json-patch+json</c>, RFC 6902's type for <c>PATCH</c> bodies, or
    /// <c>application/x-ndjson</c>, the JSON lines of <c>POST /bulk_insert</c>), with no charset or UTF-8 (the only
    /// encoding JSON bodies may use, RFC 8259). None is a type a page may send cross-site without a preflight.
    /// </summary>
    private static bool IsJson(string? contentType) =>
        MediaTypeHeaderValue.TryParse(contentType, out var parsed)
        && (parsed.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase)
            || parsed.MediaType.Equals(JsonPatchMediaType, StringComparison.OrdinalIgnoreCase)
            || parsed.MediaType.Equals("application/x-ndjson", StringComparison.OrdinalIgnoreCase))
        && (parsed.Charset.Length == 0 || HeaderUtilities.RemoveQuotes(parsed.Charset).Equals("utf-8", StringComparison.OrdinalIgnoreCase));
}
