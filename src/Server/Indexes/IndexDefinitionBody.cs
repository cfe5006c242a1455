using System.Buffers;
using System.Text;
using System.Text.Json;
using RavenLite.Indexing.Definitions;
using RavenLite.Server.Errors;
using RavenLite.Server.Json;

namespace RavenLite.Server.Indexes;

/// <summary>
/// Reads the body of <c>PUT /indexes/{name}</c>: the same definition JSON the embedded API takes
/// (<see cref="IndexDefinition.FromJson"/>). The route names the index: a <c>Name</c> in the body may be left out
/// (the route's is used) or must equal the route's, compared case-insensitively as index names are.
/// </summary>
internal static class IndexDefinitionBody
{
    /// <summary>The definition; throws a 400 <see cref="RequestException"/> or <see cref="ArgumentException"/> naming the problem.</summary>
    public static IndexDefinition Read(ReadOnlyMemory<byte> body, string routeName)
    {
        if (body.IsEmpty)
            throw RequestException.BadRequest("The request body is empty; it must be an index definition such as {\"Fields\": [{\"Name\": \"Tag\", \"Path\": \"tag\"}]}.");
        JsonDocument parsed;
        try
        {
            parsed = JsonDocument.Parse(body, JsonOutput.ReaderOptions);
        }
        catch (JsonException ex)
        {
            throw RequestException.BadRequest($"The index definition is not valid JSON: {ex.Message}");
        }
        using (parsed)
        {
            var root = parsed.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
                throw RequestException.BadRequest($"The index definition must be a JSON object, not {RequestJson.Describe(root.ValueKind)}.");
            var json = NameOf(root) switch
            {
                null => WithName(root, routeName),
                { ValueKind: JsonValueKind.String } name when name.GetString()!.Equals(routeName, StringComparison.OrdinalIgnoreCase) =>
                    Encoding.UTF8.GetString(body.Span),
                { ValueKind: JsonValueKind.String } name => throw RequestException.BadRequest(
                    $"The definition's Name '{name.GetString()}' differs from the index named in the URL, '{routeName}'; leave Name out or make them match."),
                // Not a string: FromJson says what is wrong with it.
                _ => Encoding.UTF8.GetString(body.Span),
            };
            return IndexDefinition.FromJson(json);
        }
    }

    private static JsonElement? NameOf(JsonElement root)
    {
        foreach (var property in root.EnumerateObject())
        {
            if (property.Name.Equals("Name", StringComparison.OrdinalIgnoreCase))
                return property.Value;
        }
        return null;
    }

    /// <summary>The definition with <c>"Name": routeName</c> in front of its own members.</summary>
    private static string WithName(JsonElement root, string routeName)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var json = new Utf8JsonWriter(buffer, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            json.WriteString("Name", routeName);
            foreach (var property in root.EnumerateObject())
                property.WriteTo(json);
            json.WriteEndObject();
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
