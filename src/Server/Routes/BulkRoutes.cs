using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /bulk_docs</c>: puts and deletes applied in one transaction, all or none.</summary>
internal static class BulkRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapPost("/bulk_docs", PostAsync);

    /// <summary>
    /// Answers <c>[{"Method","Key","Etag"}...]</c> in command order (<c>Etag</c> null for a delete of a missing
    /// document, plus <c>"Deleted"</c> for deletes). A bad or conflicting command fails the whole batch with an
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
            var isDelete = commands[i] is DeleteCommand;
            json.WriteStartObject();
            json.WriteString("Method", isDelete ? "DELETE" : "PUT");
            json.WriteString("Key", results[i].Key);
            if (results[i].Etag is { } etag)
                json.WriteString("Etag", ETags.ToText(etag));
            else
                json.WriteNull("Etag");
            if (isDelete)
                json.WriteBoolean("Deleted", results[i].Deleted);
            json.WriteEndObject();
        }
        json.WriteEndArray();
        json.Flush();
    }
}
