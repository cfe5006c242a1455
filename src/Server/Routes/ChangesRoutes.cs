using RavenLite.Database;
using RavenLite.Server.Changes;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>GET /changes</c>: the changes feed as Server-Sent Events, from <c>Last-Event-ID</c> (or <c>?from=</c>), filtered by
/// <c>key=</c>, <c>prefix=</c>, <c>collection=</c> (repeatable) and <c>indexes=false</c>.
/// </summary>
internal static class ChangesRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapGet("/changes", StreamAsync)
            .Describe(new RouteDescription("The changes feed as Server-Sent Events: every put and delete after an etag, in etag order, then live; index caught-up events.", "Changes")
            {
                Parameters =
                [
                    new ParameterDescription("Last-Event-ID", ParameterPlace.Header, "string", "Resume after this etag (what an EventSource sends when it reconnects)."),
                    new ParameterDescription("from", ParameterPlace.Query, "string", "Start after this etag when there is no Last-Event-ID (default 0: everything)."),
                    new ParameterDescription("key", ParameterPlace.Query, "string", "Only this document (repeatable)."),
                    new ParameterDescription("prefix", ParameterPlace.Query, "string", "Only keys starting with this (repeatable)."),
                    new ParameterDescription("collection", ParameterPlace.Query, "string", "Only documents of this Raven-Entity-Name (repeatable)."),
                    new ParameterDescription("indexes", ParameterPlace.Query, "boolean", "false: no index events."),
                ],
                Responses = RouteDocs.Statuses((200, "text/event-stream: 'put'/'delete' events (id = etag, data {\"Kind\", \"Etag\", \"Key\", \"EntityName\"}), 'index' events, ': heartbeat' comments; 'cut-off' for a client that stopped reading, 'closed' at shutdown, each with {\"Message\", \"LastEtag\"}."),
                    (400, "bad-request: a bad Last-Event-ID, from or indexes.")),
                SuccessType = null,
            });

    private static async Task StreamAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options,
        IHostApplicationLifetime lifetime, ChangesStreams streams)
    {
        var open = Interlocked.Increment(ref streams.Open);
        try
        {
            if (open > options.Changes.MaxConnections)
            {
                throw new RequestException(StatusCodes.Status503ServiceUnavailable, ErrorCodes.TooManyConnections,
                    $"{options.Changes.MaxConnections} /changes streams are open, the most this server serves (Changes:MaxConnections); retry later.");
            }
            await RunAsync(context, database, options, lifetime.ApplicationStopping);
        }
        finally
        {
            Interlocked.Decrement(ref streams.Open);
        }
    }

    private static async Task RunAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options, CancellationToken stopping)
    {
        var request = context.Request;
        var filter = new ChangesFilter
        {
            Keys = [.. request.Query["key"].OfType<string>()],
            Prefixes = [.. request.Query["prefix"].OfType<string>()],
            Collections = [.. request.Query["collection"].OfType<string>()],
            IncludeIndexes = request.Query["indexes"].ToString() switch
            {
                "" or "true" => true,
                "false" => false,
                var other => throw RequestException.BadRequest($"indexes must be true or false, not '{other}'."),
            },
        };
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, stopping);
        await new ChangesConnection(context, database, options.Changes, filter, context.RequestServices.GetRequiredService<TimeProvider>()).RunAsync(StartEtag(request), linked.Token);
    }

    /// <summary><c>Last-Event-ID</c> (what a reconnecting EventSource sends) wins over <c>?from=</c>; neither: 0, everything.</summary>
    private static long StartEtag(HttpRequest request)
    {
        var text = request.Headers["Last-Event-ID"].ToString();
        var name = "Last-Event-ID";
        if (text.Length == 0)
        {
            text = request.Query["from"].ToString();
            name = "from";
        }
        if (text.Length == 0)
            return 0;
        return ETags.TryParse(text, out var etag)
            ? etag
            : throw RequestException.BadRequest($"{name} must be an etag (a whole number >= 0); got '{text}'.");
    }
}
