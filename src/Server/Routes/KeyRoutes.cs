using RavenLite.Server.Errors;
using RavenLite.Server.Hosting;
using RavenLite.Server.OpenApi;
using RavenLite.Server.Security;

namespace RavenLite.Server.Routes;

/// <summary><c>GET /keys/current</c> (what the request's key may do) and <c>POST /admin/keys/reload</c>.</summary>
internal static class KeyRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/keys/current", Current)
            .Describe(new RouteDescription("What the request's API key may do: its scope and the scopes it includes (the studio shows it).", "Status")
            {
                Responses = RouteDocs.Statuses((200, "{\"Scope\": \"read\"|\"write\"|\"admin\", \"Scopes\": [...], \"KeysRequired\"}; without keys (loopback only) the scope is admin.")),
            });
        routes.MapPost("/admin/keys/reload", (RavenLiteServerOptions options, ILoggerFactory logs) =>
        {
            try
            {
                return Results.Json(new ReloadResult(Reload(options.Keys, logs.CreateLogger("RavenLite.Server"))));
            }
            catch (ArgumentException ex)
            {
                throw RequestException.BadRequest(ArgumentMessage.Of(ex));
            }
        })
            .Describe(new RouteDescription("Reads the API keys again (the --api-keys-file as it is now), as SIGHUP does; no restart.", "Status")
            {
                Responses = RouteDocs.Statuses((200, "{\"Keys\": \"1 read, 2 admin\"}: the keys now in force."),
                    (400, "bad-request: the new keys are bad (a short key, a malformed line, one key with two scopes, no key at all); the current keys stay.")),
            });
    }

    /// <summary>
    /// Reads the keys again (<see cref="KeyRing.Reload"/>) and logs the outcome; returns the keys now in force.
    /// <c>POST /admin/keys/reload</c> and SIGHUP both come here.
    /// </summary>
    /// <exception cref="ArgumentException">The new keys are bad; the current ones stay.</exception>
    public static string Reload(KeyRing keys, ILogger logger)
    {
        try
        {
            var now = keys.Reload();
            ServerLog.KeysReloaded(logger, now);
            return now;
        }
        catch (ArgumentException ex)
        {
            ServerLog.KeysReloadFailed(logger, ArgumentMessage.Of(ex));
            throw;
        }
    }

    /// <summary>
    /// The scope of the key this request carried (<c>read</c>, <c>write</c> or <c>admin</c>), each scope it includes, and
    /// whether the server needs keys at all (without keys, loopback clients may do everything). The studio shows it.
    /// </summary>
    private static IResult Current(HttpContext context, RavenLiteServerOptions options)
    {
        var scope = context.Items[ApiKeyMiddleware.ScopeItem] is ApiKeyScope given ? given : ApiKeyScope.Read;
        var includes = Enum.GetValues<ApiKeyScope>().Where(s => s <= scope).Select(Name).ToArray();
        return Results.Json(new CurrentKey(Name(scope), includes, options.Keys.HasKeys));
    }

    private static string Name(ApiKeyScope scope) => scope.ToString().ToLowerInvariant();

    private sealed record CurrentKey(string Scope, string[] Scopes, bool KeysRequired);

    private sealed record ReloadResult(string Keys);
}
