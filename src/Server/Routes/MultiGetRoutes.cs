using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /queries</c>: several documents by key, read in one transaction.</summary>
internal static class MultiGetRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPost("/queries", PostAsync)
            .Describe(new RouteDescription("Several documents by key, read in one transaction, and the documents they refer to (include=).", "Documents")
            {
                Parameters = [RouteDocs.IfNoneMatch, new ParameterDescription("include", ParameterPlace.Query, "string", "A field path holding ids (CustomerId, Lines[].ProductId), as in index definitions; repeatable.")],
                Body = ("array", "The keys (strings)."),
                Responses = RouteDocs.Statuses((200, "{\"Results\": [document or null, ...]} in request order, plus \"Includes\": [document, ...] with include=."),
                    (304, "If-None-Match named the current answer."),
                    (400, "bad-request: not an array of strings, too many keys, or a bad include path.")),
                ResponseHeaders = [("ETag", "A hash of the keys and include paths asked for and each document's current etag.")],
            });

    /// <summary>
    /// Body <c>["k1","k2"]</c>; answers <c>{"Results":[doc or null, ...]}</c> in request order, plus
    /// <c>"Includes":[doc, ...]</c>, the documents they refer to, when <c>include=</c> paths are given (repeatable,
    /// written as in index definitions: <c>CustomerId</c>, <c>Lines[].ProductId</c>). The <c>ETag</c> covers the keys,
    /// the include paths and every document's etag; the route is a read: <c>If-None-Match</c> naming the current tag
    /// gets <c>304 Not Modified</c> and no body, as a GET would.
    /// </summary>
    private static async Task PostAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options)
    {
        var body = await RequestBody.ReadAsync(context.Request, options.MaxRequestBodyBytes);
        var keys = ParseKeys(body, options.MaxMultiGetKeys);
        var includePaths = context.Request.Query["include"].OfType<string>().ToArray();
        var read = database.GetWithIncludes(keys, includePaths);
        var etag = MultiGetETag.Compute(keys, read.Results, includePaths, read.Includes);
        context.Response.Headers.ETag = etag;
        if (ETags.IfNoneMatchHits(context.Request, etag))
        {
            context.Response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }

        context.Response.ContentType = JsonOutput.ContentType;
        using var writer = new DocumentJsonWriter(context.Response.BodyWriter);
        writer.Raw("{\"Results\":["u8);
        await writer.DocumentsAsync(read.Results, context.RequestAborted);
        if (includePaths.Length > 0)
        {
            writer.Raw("],\"Includes\":["u8);
            await writer.DocumentsAsync(read.Includes, context.RequestAborted);
        }
        writer.Raw("]}"u8);
        await writer.FlushAsync(context.RequestAborted);
    }

    private static string[] ParseKeys(ReadOnlyMemory<byte> body, int max)
    {
        using var parsed = RequestJson.ParseArray(body, "document keys");
        var count = parsed.RootElement.GetArrayLength();
        if (count > max)
            throw RequestException.BadRequest($"A multi-get may ask for at most {max} keys; this one asks for {count}.");
        var keys = new string[count];
        var i = 0;
        foreach (var element in parsed.RootElement.EnumerateArray())
        {
            if (element.ValueKind != JsonValueKind.String)
                throw RequestException.BadRequest($"Key {i} must be a string, not {RequestJson.Describe(element.ValueKind)}.");
            keys[i++] = element.GetString()!;
        }
        return keys;
    }
}
