using System.Net;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Security;

/// <summary>
/// With API keys configured (<see cref="KeyRing"/>), every request must carry one in <c>X-Api-Key</c> (else 401), whose
/// scope covers what the request needs (<see cref="RouteScopes"/>; else 403 <c>scope-missing</c>). Without keys, the
/// server answers only connections that arrived on a loopback address (403 otherwise), in case a listener was
/// configured around <see cref="Hosting.ListenAddresses"/>. An address that sent more than
/// <see cref="RavenLiteServerOptions.AuthFailuresPerMinute"/> wrong or missing keys in a minute gets 429 for every
/// request until the minute is over, right key or not, so keys cannot be guessed at speed. Over https, a request without
/// a key may instead present a TLS client certificate the keys file names (<see cref="KeyRing.MatchCertificate"/>).
/// </summary>
internal sealed class ApiKeyMiddleware(RequestDelegate next, KeyRing keys, FailedAuthentications failures, TimeProvider time)
{
    /// <summary>The request header carrying the key.</summary>
    public const string HeaderName = "X-Api-Key";

    /// <summary>Where the request's scope is kept in <see cref="HttpContext.Items"/> once its key is checked.</summary>
    public const string ScopeItem = "RavenLite.ApiKeyScope";

    /// <summary>Checks the request, then runs the rest of the pipeline.</summary>
    public Task InvokeAsync(HttpContext context)
    {
        if (!keys.HasKeys)
        {
            if (context.Connection.LocalIpAddress is { } local && !IPAddress.IsLoopback(local))
                throw RequestException.NotLoopback();
            context.Items[ScopeItem] = ApiKeyScope.Admin;
            return next(context);
        }
        var remote = context.Connection.RemoteIpAddress ?? IPAddress.None;
        if (failures.IsBlocked(remote))
            throw failures.Refusal(context);
        var given = context.Request.Headers[HeaderName];
        ApiKeyScope scope;
        if (given.Count == 0 && context.Connection.ClientCertificate is { } certificate)
        {
            if (keys.MatchCertificate(certificate, time.GetUtcNow()) is not { } certificateScope)
            {
                failures.Record(remote);
                throw RequestException.Unauthorized("The client certificate is not one this server knows, or it is outside its validity period.");
            }
            scope = certificateScope;
        }
        else if (given.Count == 1 && keys.Match(given.ToString()) is { } keyScope)
        {
            scope = keyScope;
        }
        else
        {
            failures.Record(remote);
            throw RequestException.Unauthorized(given.Count == 0 ? $"Missing {HeaderName} header." : $"Wrong {HeaderName}.");
        }
        var required = RouteScopes.Required(context.Request);
        if (scope < required)
        {
            throw new RequestException(StatusCodes.Status403Forbidden, ErrorCodes.ScopeMissing,
                $"This key may {Describe(scope)}; {context.Request.Method} {context.Request.Path} needs the {required.ToString().ToLowerInvariant()} scope.");
        }
        context.Items[ScopeItem] = scope;
        return next(context);
    }

    private static string Describe(ApiKeyScope scope) => scope switch
    {
        ApiKeyScope.Read => "only read (read scope)",
        ApiKeyScope.Write => "read and write documents (write scope)",
        _ => "do everything (admin scope)",
    };
}
