using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>
/// Reads a <c>POST /bulk_docs</c> body:
/// <c>[{"Method":"PUT","Key":"k","Document":{...},"Metadata":{...},"Etag":null}, {"Method":"DELETE","Key":"k"},
/// {"Method":"PATCH","Key":"k","Patch":[{"op":"replace","path":"/a","value":1}]}]</c>.
/// Member names are matched case-insensitively. Errors start with "Batch command N:", as the storage layer's do.
/// </summary>
internal static class BulkCommandParser
{
    /// <summary>The commands, in order; throws a 400 <see cref="RequestException"/> naming the bad command.</summary>
    public static List<BatchCommand> Parse(ReadOnlyMemory<byte> body)
    {
        using var parsed = RequestJson.ParseArray(body, "commands");
        var commands = new List<BatchCommand>(parsed.RootElement.GetArrayLength());
        var index = 0;
        foreach (var element in parsed.RootElement.EnumerateArray())
            commands.Add(ParseCommand(element, $"Batch command {index++}"));
        if (commands.Count == 0)
            throw RequestException.BadRequest("The request body must hold at least one command.");
        return commands;
    }

    private static BatchCommand ParseCommand(JsonElement command, string where)
    {
        if (command.ValueKind != JsonValueKind.Object)
            throw RequestException.BadRequest($"{where}: must be a JSON object, not {RequestJson.Describe(command.ValueKind)}.");
        var method = RequiredString(command, "Method", where).ToUpperInvariant();
        var key = RequiredString(command, "Key", where);
        var etag = Etag(Member(command, "Etag"), where);
        switch (method)
        {
            case "PUT":
                var document = Member(command, "Document");
                if (document.ValueKind != JsonValueKind.Object)
                    throw RequestException.BadRequest(
                        $"{where}: a PUT needs Document, a JSON object; got {RequestJson.Describe(document.ValueKind)}.");
                ReservedMembers.ThrowIfMetadata(document, where);
                try
                {
                    return BatchCommand.Put(key, RequestJson.Content(document), RequestJson.Metadata(Member(command, "Metadata"), where), etag);
                }
                catch (ArgumentException ex)
                {
                    throw RequestException.BadRequest($"{where}: {ArgumentMessage.Of(ex)}");
                }
            case "DELETE":
                return BatchCommand.Delete(key, etag);
            case "PATCH":
                var patch = Member(command, "Patch");
                if (patch.ValueKind != JsonValueKind.Array)
                    throw RequestException.BadRequest(
                        $"{where}: a PATCH needs Patch, a JSON Patch array of operations; got {RequestJson.Describe(patch.ValueKind)}.");
                DocumentPatch parsed;
                try
                {
                    parsed = DocumentPatch.Parse(patch.GetRawText());
                }
                catch (ArgumentException ex) when (ex is not LimitExceededException)
                {
                    throw RequestException.BadRequest($"{where}: {ArgumentMessage.Of(ex)}");
                }
                ReservedMembers.ThrowIfMetadata(parsed, where);
                return BatchCommand.Patch(key, parsed, etag);
            default:
                throw RequestException.BadRequest($"{where}: Method must be PUT, DELETE or PATCH, not '{method}'.");
        }
    }

    private static JsonElement Member(JsonElement command, string name)
    {
        foreach (var property in command.EnumerateObject())
        {
            if (property.NameEquals(name) || property.Name.Equals(name, StringComparison.OrdinalIgnoreCase))
                return property.Value;
        }
        return default;
    }

    private static string RequiredString(JsonElement command, string name, string where)
    {
        var value = Member(command, name);
        return value.ValueKind == JsonValueKind.String
            ? value.GetString()!
            : throw RequestException.BadRequest($"{where}: {name} must be a string; got {RequestJson.Describe(value.ValueKind)}.");
    }

    /// <summary>null/absent: no check; 0: must not exist; n: must match. Given as a number or a string.</summary>
    private static long? Etag(JsonElement value, string where) => value.ValueKind switch
    {
        JsonValueKind.Null or JsonValueKind.Undefined => null,
        JsonValueKind.Number when value.TryGetInt64(out var n) && n >= 0 => n,
        JsonValueKind.String when ETags.TryParse(value.GetString(), out var n) => n,
        _ => throw RequestException.BadRequest($"{where}: Etag must be null, 0 (must not exist) or a document etag; got {value.GetRawText()}."),
    };
}
