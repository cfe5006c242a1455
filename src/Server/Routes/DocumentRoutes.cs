using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary>One document at a time: <c>GET|HEAD|PUT|DELETE /docs/{id}</c> and <c>POST /docs</c>.</summary>
internal static class DocumentRoutes
{
    /// <summary>Adds the routes. Keys may contain <c>/</c> (<c>/docs/carts/1</c>), hence the catch-all.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/docs/{**id}", GetAsync)
            .Describe(RouteDocs.Document("One document: its data as the body, metadata as Raven-* headers."));
        routes.MapMethods("/docs/{**id}", [HttpMethods.Head], GetAsync)
            .Describe(RouteDocs.Document("One document's headers (ETag, Raven-*), without the body.") with { SuccessType = null });
        routes.MapPut("/docs/{**id}", PutAsync)
            .Describe(new RouteDescription("Creates or replaces a document.", "Documents")
            {
                Parameters = [RouteDocs.IfMatch, RouteDocs.IfNoneMatch with { Description = "*: write only if the document does not exist, else 409." }, RouteDocs.EntityName],
                Body = ("object", "The document: one JSON object."),
                Responses = RouteDocs.Statuses((201, "Written: {\"Key\", \"ETag\"}."), (400, "bad-request: not one JSON object, or a bad key."), (409, "concurrency-conflict: the etag did not match; nothing was written."),
                    (413, "payload-too-large: the body is larger than the server accepts.")),
                ResponseHeaders = [RouteDocs.EtagHeader],
            });
        routes.MapDelete("/docs/{**id}", Delete)
            .Describe(new RouteDescription("Deletes a document (a missing one is a no-op unless If-Match is given).", "Documents")
            {
                Parameters = [RouteDocs.IfMatch],
                Responses = RouteDocs.Statuses((204, "Deleted, or there was nothing to delete."), (409, "concurrency-conflict: If-Match did not match; nothing was deleted.")),
                SuccessType = null,
            });
        routes.MapPost("/docs", PostAsync)
            .Describe(new RouteDescription("Creates a document under a generated key ({entity name}/{guid}).", "Documents")
            {
                Parameters = [RouteDocs.EntityName],
                Body = ("object", "The document: one JSON object."),
                Responses = RouteDocs.Statuses((201, "Written: {\"Key\", \"ETag\"}; the key is also in Location."), (400, "bad-request: not one JSON object.")),
                ResponseHeaders = [RouteDocs.EtagHeader, ("Location", "/docs/{key}")],
            });
    }

    private static async Task GetAsync(HttpContext context, DocumentDatabase database, string? id)
    {
        var key = RequireKey(id);
        var document = database.Get(key) ?? throw RequestException.DocumentNotFound(key);
        var response = context.Response;
        response.Headers.ETag = ETags.ToHeader(document.Etag);
        if (ETags.IfNoneMatchHits(context.Request, document.Etag))
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }
        MetadataHeaders.WriteResponse(response, document);
        response.ContentType = JsonOutput.ContentType;
        response.ContentLength = document.DataJson.Length;
        if (HttpMethods.IsHead(context.Request.Method))
            return;
        // The cached UTF-8 JSON goes out as it is: no parsing, no re-serialization.
        await response.BodyWriter.WriteAsync(document.DataJson, context.RequestAborted);
    }

    private static async Task<IResult> PutAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options, string? id)
    {
        var key = RequireKey(id);
        var expected = ETags.ExpectedForPut(context.Request);
        var data = await ReadDocumentAsync(context.Request, options);
        var put = database.Put(key, data, MetadataHeaders.FromRequest(context.Request), expected);
        return Written(context, put, location: null);
    }

    private static async Task<IResult> PostAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options)
    {
        var data = await ReadDocumentAsync(context.Request, options);
        var metadata = MetadataHeaders.FromRequest(context.Request);
        var key = GeneratedKey(context.Request.Headers[MetadataNames.EntityName].ToString());
        var put = database.Put(key, data, metadata, expectedEtag: 0);
        return Written(context, put, location: "/docs/" + string.Join('/', put.Key.Split('/').Select(Uri.EscapeDataString)));
    }

    private static IResult Delete(HttpContext context, DocumentDatabase database, string? id)
    {
        var key = RequireKey(id);
        // Without If-Match, deleting a missing document is a no-op and still 204; with it, 409.
        database.Delete(key, ETags.IfMatch(context.Request));
        return Results.NoContent();
    }

    private static async Task<DocumentContent> ReadDocumentAsync(HttpRequest request, RavenLiteServerOptions options)
    {
        var body = await RequestBody.ReadAsync(request, options.MaxRequestBodyBytes);
        if (body.IsEmpty)
            throw RequestException.BadRequest("The request body is empty; a document must be a JSON object.");
        var content = DocumentContent.FromJson(body.Span);
        Json.ReservedMembers.ThrowIfMetadata(body.Span);
        return content;
    }

    /// <summary><c>{entity name, lower-cased}/{guid}</c> with a <c>Raven-Entity-Name</c> header, else a bare GUID.</summary>
    private static string GeneratedKey(string entityName)
    {
        var id = Guid.NewGuid().ToString("D");
        return string.IsNullOrWhiteSpace(entityName) ? id : $"{entityName.Trim().ToLowerInvariant()}/{id}";
    }

    private static IResult Written(HttpContext context, PutResult put, string? location)
    {
        context.Response.Headers.ETag = ETags.ToHeader(put.Etag);
        var body = new WriteResult(put.Key, ETags.ToText(put.Etag));
        return location is null ? Results.Json(body, statusCode: StatusCodes.Status201Created) : Results.Created(location, body);
    }

    private static string RequireKey(string? id) =>
        string.IsNullOrEmpty(id) ? throw RequestException.BadRequest("A document key is required: /docs/{key}.") : id;

    /// <summary>The body of a 201: the key as stored and its new etag.</summary>
    private sealed record WriteResult(string Key, string ETag);
}
