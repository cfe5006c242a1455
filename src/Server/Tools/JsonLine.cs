using System.Buffers;
using System.Runtime.InteropServices;
using System.Text.Json;
using RavenLite.Server.Errors;
using RavenLite.Server.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tools;

/// <summary>One line of an import: <c>{"key": "...", "metadata": {...}, "data": {...}}</c>, checked as the database checks it.</summary>
internal static class JsonLine
{
    public static bool IsBlank(ReadOnlySequence<byte> line)
    {
        foreach (var segment in line)
        {
            foreach (var b in segment.Span)
            {
                if (b is not ((byte)' ' or (byte)'\t'))
                    return false;
            }
        }
        return true;
    }

    /// <summary>Parses and checks the line; false with what is wrong (a sentence) when it is bad.</summary>
    public static bool TryParse(byte[] line, out TransferDocument? document, out string? error)
    {
        try
        {
            using var parsed = JsonDocument.Parse(line, JsonOutput.ReaderOptions);
            var root = parsed.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
                throw new ArgumentException($"a line must be a JSON object, not {RequestJson.Describe(root.ValueKind)}.");
            var key = Member(root, "key") is { ValueKind: JsonValueKind.String } k ? k.GetString()! : throw new ArgumentException("\"key\" must be a string.");
            var data = Member(root, "data") is { ValueKind: JsonValueKind.Object } d ? d : throw new ArgumentException("\"data\" must be a JSON object.");
            var metadataElement = Member(root, "metadata") ?? default;
            var metadata = RequestJson.Metadata(metadataElement, "this line");
            var dataJson = JsonMarshal.GetRawUtf8Value(data).ToArray();
            document = new TransferDocument(key, metadata is null ? "{}"u8.ToArray() : JsonMarshal.GetRawUtf8Value(metadataElement).ToArray(), dataJson)
            {
                Content = (DocumentContent.FromJson(dataJson), metadata),
            };
            error = null;
            return true;
        }
        catch (Exception ex) when (ex is JsonException or ArgumentException or RequestException)
        {
            document = null;
            error = ex is JsonException ? $"not valid JSON: {ex.Message}" : ex.Message;
            return false;
        }
    }

    private static JsonElement? Member(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind is not (JsonValueKind.Null or JsonValueKind.Undefined) ? value : null;
}
