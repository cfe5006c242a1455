using System.Globalization;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary>
/// Patch and delete by query, as in early RavenDB: <c>PATCH /bulk_docs/{index}?query=</c> (a JSON Patch) and
/// <c>DELETE /bulk_docs/{index}?query=</c> start a set operation and answer 202 at once; <c>GET /operations</c>,
/// <c>GET /operations/{id}</c> follow it and <c>DELETE /operations/{id}</c> cancels it.
/// </summary>
internal static class SetOperationRoutes
{
    /// <summary>Adds the routes. Index names may contain <c>/</c>, hence the catch-all.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapPatch("/bulk_docs/{**index}", PatchAsync)
            .Describe(new RouteDescription("Patch by query: starts applying a JSON Patch to every document the index query matches, in batches of one transaction each, and answers at once.", "Operations")
            {
                Parameters = [s_setQuery, s_allowStale, new ParameterDescription("stopOnFailure", ParameterPlace.Query, "boolean",
                    "true: stop at the first document the patch refuses. Default false: leave it as it is, report it, go on.")],
                Body = ("array", "application/json-patch+json: [{\"op\", \"path\", \"from\", \"value\"}] as for PATCH /docs/{key}, increments included."),
                Responses = RouteDocs.Statuses((202, "Started: its status; Location is where to follow it."), (400, "bad-request or query-invalid: a bad patch or query."),
                    (404, "index-not-found: no such index."), (409, "index-stale: the index is stale and allowStale is not true; nothing was changed."),
                    (415, "unsupported-media-type: the body is not application/json-patch+json.")),
                ResponseHeaders = [("Location", "/operations/{id}")],
            });
        routes.MapDelete("/bulk_docs/{**index}", DeleteAsync)
            .Describe(new RouteDescription("Delete by query: starts deleting every document the index query matches, in batches of one transaction each, and answers at once.", "Operations")
            {
                Parameters = [s_setQuery, s_allowStale],
                Responses = RouteDocs.Statuses((202, "Started: its status; Location is where to follow it."), (400, "query-invalid: a bad query."),
                    (404, "index-not-found: no such index."), (409, "index-stale: the index is stale and allowStale is not true; nothing was deleted.")),
                ResponseHeaders = [("Location", "/operations/{id}")],
            });
        routes.MapGet("/operations", (DocumentDatabase database) => Results.Json(database.GetOperations()))
            .Describe(new RouteDescription("The set operations running and the last 100 finished, newest first.", "Operations")
            {
                Responses = RouteDocs.Statuses((200, "[{\"Id\", \"Kind\", \"IndexName\", \"Query\", \"State\", \"Matched\", \"Processed\", \"Changed\", \"FailedCount\", \"Failures\", \"StartedAt\", \"FinishedAt\", \"Error\"}].")),
            });
        routes.MapGet("/operations/{id}", (DocumentDatabase database, string id) => Results.Json(Find(database, id).Status))
            .Describe(new RouteDescription("One set operation's status: Running, Completed, Stopped, Cancelled or Failed, with its counts and refused documents.", "Operations")
            {
                Responses = RouteDocs.Statuses((200, "{\"Id\", \"State\", \"Matched\", \"Processed\", \"Changed\", ...}."), (404, "operation-not-found: no such operation.")),
            });
        routes.MapDelete("/operations/{id}", Cancel)
            .Describe(new RouteDescription("Cancels a set operation before its next batch (the batch being written is committed whole).", "Operations")
            {
                Responses = RouteDocs.Statuses((202, "Asked to stop: its status (Cancelled once it has stopped)."), (404, "operation-not-found: no such operation.")),
            });
    }

    private static readonly ParameterDescription s_setQuery = new("query", ParameterPlace.Query, "string", "Lucene syntax (Group:g3); every document of the index when absent.");
    private static readonly ParameterDescription s_allowStale = new("allowStale", ParameterPlace.Query, "boolean",
        "true: act on what a stale index matches now. Default false: a stale index is refused with 409 index-stale.");

    /// <summary>
    /// Starts applying the JSON Patch in the body to every document the query matches; 202 with the status and, in
    /// <c>Location</c>, <c>/operations/{id}</c>. 409 <c>index-stale</c> when the index is stale and <c>allowStale</c> is
    /// not true; 404 for an unknown index; 400 for a bad query or patch; 415 for a body that is not a JSON Patch.
    /// </summary>
    private static async Task<IResult> PatchAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options, string? index)
    {
        var indexName = RequireIndex(index);
        PatchRoutes.RequireJsonPatch(context);
        var body = await RequestBody.ReadAsync(context.Request, options.MaxRequestBodyBytes);
        var patch = DocumentPatch.Parse(body.Span);
        Json.ReservedMembers.ThrowIfMetadata(patch);
        var settings = Settings(context.Request);
        // Finding the matching keys searches the whole index: off the request's thread.
        var operation = await Task.Run(() => database.PatchByQuery(indexName, QueryParameters.GetString(context.Request, "query"), patch, settings));
        return Accepted(context, operation);
    }

    /// <summary>Starts deleting every document the query matches; answers as <see cref="PatchAsync"/>.</summary>
    private static async Task<IResult> DeleteAsync(HttpContext context, DocumentDatabase database, string? index)
    {
        var indexName = RequireIndex(index);
        var settings = Settings(context.Request);
        var operation = await Task.Run(() => database.DeleteByQuery(indexName, QueryParameters.GetString(context.Request, "query"), settings));
        return Accepted(context, operation);
    }

    /// <summary>Asks the operation to stop before its next batch; 202 with its status (it reads Cancelled once it has stopped).</summary>
    private static IResult Cancel(DocumentDatabase database, string id)
    {
        var operation = Find(database, id);
        operation.Cancel();
        return Results.Json(operation.Status, statusCode: StatusCodes.Status202Accepted);
    }

    private static SetOperationOptions Settings(HttpRequest request) => new()
    {
        AllowStale = QueryParameters.GetBoolean(request, "allowStale", false),
        StopOnFailure = QueryParameters.GetBoolean(request, "stopOnFailure", false),
    };

    private static IResult Accepted(HttpContext context, SetOperation operation)
    {
        context.Response.Headers.Location = "/operations/" + operation.Id.ToString(CultureInfo.InvariantCulture);
        return Results.Json(operation.Status, statusCode: StatusCodes.Status202Accepted);
    }

    private static string RequireIndex(string? index) =>
        string.IsNullOrEmpty(index) ? throw RequestException.BadRequest("An index name is required: /bulk_docs/{index}?query=...") : index;

    private static SetOperation Find(DocumentDatabase database, string id) =>
        long.TryParse(id, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && database.GetOperation(number) is { } operation
            ? operation
            : throw new RequestException(StatusCodes.Status404NotFound, ErrorCodes.OperationNotFound,
                $"No set operation '{id}'; GET /operations lists the running ones and the last 100 finished.");
}
