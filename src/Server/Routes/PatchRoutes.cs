using Microsoft.Net.Http.Headers;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Security;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary>
/// <c>PATCH /docs/{id}</c> with a JSON Patch document (RFC 6902, <c>application/json-patch+json</c>), applied in the
/// write transaction to the current version; <c>If-Match</c> makes it conditional.
/// </summary>
internal static class PatchRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPatch("/docs/{**id}", PatchAsync)
            .Describe(new RouteDescription("Changes part of a document with a JSON Patch (RFC 6902), applied in the write transaction to the current version: all operations or none.", "Documents")
            {
                Parameters = [RouteDocs.IfMatch],
                Body = ("array", "application/json-patch+json: [{\"op\": \"add\"|\"remove\"|\"replace\"|\"move\"|\"copy\"|\"test\"|\"increment\", \"path\", \"from\", \"value\"}]."),
                Responses = RouteDocs.Statuses((200, "Patched: {\"Key\", \"ETag\"}."), (400, "bad-request: not a JSON Patch document."), (404, "document-not-found: no such document."),
                    (409, "concurrency-conflict or patch-test-failed: If-Match or a test operation failed; nothing was written."), (415, "unsupported-media-type: the body is not application/json-patch+json."),
                    (422, "patch-invalid: a path or value does not fit the document; nothing was written.")),
                ResponseHeaders = [RouteDocs.EtagHeader],
            });

    /// <summary>
    /// 200 with <c>{"Key","ETag"}</c> and the new <c>ETag</c>; 404 without the document; 409 when <c>If-Match</c> or a
    /// <c>test</c> operation fails; 422 when a path or value does not fit the document; 400 for a malformed patch;
    /// 415 for another content type. Nothing is written unless every operation applies.
    /// </summary>
    private static async Task<IResult> PatchAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options, string? id)
    {
        if (string.IsNullOrEmpty(id))
            throw RequestException.BadRequest("A document key is required: /docs/{key}.");
        var request = context.Request;
        RequireJsonPatch(context);
        var expected = ETags.IfMatch(request);
        var body = await RequestBody.ReadAsync(request, options.MaxRequestBodyBytes);
        var patch = DocumentPatch.Parse(body.Span);
        Json.ReservedMembers.ThrowIfMetadata(patch);
        // One synchronous call: read, apply and write happen in one write transaction on this thread.
        var etag = database.Patch(id, patch, expected) ?? throw RequestException.DocumentNotFound(id);
        context.Response.Headers.ETag = ETags.ToHeader(etag);
        return Results.Json(new PatchResult(id, ETags.ToText(etag)));
    }

    /// <summary>Refuses (415, with <c>Accept-Patch</c>) a body that is not declared as a JSON Patch document.</summary>
    internal static void RequireJsonPatch(HttpContext context)
    {
        if (MediaTypeHeaderValue.TryParse(context.Request.ContentType, out var type)
            && type.MediaType.Equals(BrowserGuardMiddleware.JsonPatchMediaType, StringComparison.OrdinalIgnoreCase))
            return;
        // Set as the response starts: the error middleware clears the headers of a refused request first.
        context.Response.OnStarting(() =>
        {
            context.Response.Headers["Accept-Patch"] = BrowserGuardMiddleware.JsonPatchMediaType;
            return Task.CompletedTask;
        });
        throw new RequestException(StatusCodes.Status415UnsupportedMediaType, ErrorCodes.UnsupportedMediaType,
            $"PATCH bodies are JSON Patch documents (RFC 6902): send Content-Type: {BrowserGuardMiddleware.JsonPatchMediaType}.");
    }

    /// <summary>The body of a 200: the key and the patched version's etag.</summary>
    private sealed record PatchResult(string Key, string ETag);
}
