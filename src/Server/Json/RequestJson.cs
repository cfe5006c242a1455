using System.Buffers;
using System.Runtime.InteropServices;
using System.Text.Json;
using RavenLite.Server.Errors;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>Parsing of JSON request bodies (bulk commands, multi-get keys) with 400s that say what is wrong.</summary>
internal static class RequestJson
{
    /// <summary>Parses <paramref name="body"/>, which must be a JSON array.</summary>
    public static JsonDocument ParseArray(ReadOnlyMemory<byte> body, string expected)
    {
        JsonDocument parsed;
        try
        {
            parsed = JsonDocument.Parse(body, JsonOutput.ReaderOptions);
        }
        catch (JsonException ex)
        {
            throw RequestException.BadRequest($"The request body is not valid JSON: {ex.Message}");
        }
        if (parsed.RootElement.ValueKind != JsonValueKind.Array)
        {
            var kind = parsed.RootElement.ValueKind;
            parsed.Dispose();
            throw RequestException.BadRequest($"The request body must be a JSON array of {expected}, not {Describe(kind)}.");
        }
        return parsed;
    }

    /// <summary>A JSON object given inside a request, as stored content (its bytes are used as sent, not re-serialized).</summary>
    public static DocumentContent Content(JsonElement element) => DocumentContent.FromJson(JsonMarshal.GetRawUtf8Value(element));

    /// <summary>
    /// Metadata given inside a request: a JSON object or null. Names the server computes on reads
    /// (<c>@id</c>, <c>@etag</c>, <c>Last-Modified</c>, any <c>@</c>-name) are dropped, so a document read with its
    /// <c>@metadata</c> can be written back as it is.
    /// </summary>
    public static DocumentContent? Metadata(JsonElement element, string where)
    {
        if (element.ValueKind is JsonValueKind.Null or JsonValueKind.Undefined)
            return null;
        if (element.ValueKind != JsonValueKind.Object)
            throw RequestException.BadRequest($"{where}: Metadata must be a JSON object, not {Describe(element.ValueKind)}.");
        if (!element.EnumerateObject().Any(p => MetadataNames.IsReserved(p.Name)))
            return Content(element);
        var buffer = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(buffer, JsonOutput.WriterOptions))
        {
            json.WriteStartObject();
            foreach (var property in element.EnumerateObject().Where(p => !MetadataNames.IsReserved(p.Name)))
                property.WriteTo(json);
            json.WriteEndObject();
        }
        return DocumentContent.FromJson(buffer.WrittenSpan);
    }

    /// <summary>"an object", "a string", ... for messages.</summary>
    public static string Describe(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        JsonValueKind.Null => "null",
        _ => "nothing",
    };
}
