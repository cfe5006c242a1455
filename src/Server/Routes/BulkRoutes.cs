using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /bulk_docs</c>: puts, deletes and patches applied in one transaction, all or none.</summary>
internal static class BulkRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPost("/bulk_docs", PostAsync);

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
