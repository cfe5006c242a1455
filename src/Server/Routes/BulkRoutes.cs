using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /bulk_docs</c>: puts, deletes and patches applied in one transaction, all or none.</summary>
internal static class BulkRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPost("/bulk_docs", PostAsync)
            .Describe(new RouteDescription("Puts, deletes and patches in one transaction: all of them, or none.", "Documents")
            {
                Body = ("array", "Commands: {\"Method\": \"PUT\"|\"DELETE\"|\"PATCH\", \"Key\", \"Document\", \"Metadata\", \"Patch\" (a JSON Patch array), \"Etag\"}."),
                Responses = RouteDocs.Statuses((200, "One result per command: {\"Method\", \"Key\", \"Etag\", \"Deleted\"}."), (400, "bad-request: a bad command (the error names its index)."),
                    (409, "concurrency-conflict: an etag did not match (the error names the command in commandIndex); patch-test-failed: a patch's test did not match. Nothing was written."),
                    (422, "patch-invalid: a patch's path does not fit its document.")),
                SuccessType = "array",
            });

    /// <summary>
    /// Answers <c>[{"Method","Key","Etag"}...]</c> in command order (<c>Etag</c> null for a delete of a missing
    /// document, plus <c>"Deleted"</c> for deletes and <c>"Patched"</c> for patches, false when there was no document). A bad or conflicting command fails the whole batch with an
    /// error that names its index.
    /// </summary>
    private static async Task PostAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options)
    {
        var body = await RequestBody.ReadAsync(context.Request, options.MaxRequestBodyBytes);
        var commands = BulkCommandParser.Parse(body);
        // One synchronous call: the write transaction starts and commits inside it, on this thread.
        var results = database.Batch(commands);

        context.Response.ContentType = JsonOutput.ContentType;
        using var json = new Utf8JsonWriter(context.Response.BodyWriter, JsonOutput.WriterOptions);
        json.WriteStartArray();
        for (var i = 0; i < results.Count; i++)
        {
            var command = commands[i];
            json.WriteStartObject();
            json.WriteString("Method", command switch { DeleteCommand => "DELETE", PatchCommand => "PATCH", _ => "PUT" });
            json.WriteString("Key", results[i].Key);
            if (results[i].Etag is { } etag)
                json.WriteString("Etag", ETags.ToText(etag));
            else
                json.WriteNull("Etag");
            if (command is DeleteCommand)
                json.WriteBoolean("Deleted", results[i].Deleted);
            if (command is PatchCommand)
                json.WriteBoolean("Patched", results[i].Etag is not null);
            json.WriteEndObject();
        }
        json.WriteEndArray();
        json.Flush();
    }
}
