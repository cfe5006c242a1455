using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace RavenLite.Database;

public sealed partial class DocumentPatch
{
    /// <summary>
    /// Reads a JSON Patch document: a JSON array of operation objects (<c>application/json-patch+json</c>). Members
    /// other than <c>op</c>, <c>path</c>, <c>from</c> and <c>value</c> are ignored, as RFC 6902 says. Strings that look
    /// like dates stay strings.
    /// </summary>
    /// <exception cref="ArgumentException">Not JSON, not an array of operations, or an operation that is not well formed.</exception>
    public static DocumentPatch Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        JToken root;
        try
        {
            using var reader = new JsonTextReader(new StringReader(json))
            {
                DateParseHandling = DateParseHandling.None,
                FloatParseHandling = FloatParseHandling.Double,
                MaxDepth = Storage.Documents.DocumentContent.MaxDepth,
            };
            root = JToken.ReadFrom(reader);
            if (reader.Read())
                throw new JsonReaderException("Additional text after the patch document.");
        }
        catch (JsonReaderException ex)
        {
            throw new ArgumentException($"The patch is not valid JSON: {ex.Message}", ex);
        }
        if (root is not JArray array)
            throw new ArgumentException($"A JSON Patch document must be a JSON array of operations, not {root.Type}.");
        var operations = new List<PatchOperation>(array.Count);
        for (var i = 0; i < array.Count; i++)
        {
            if (array[i] is not JObject operation)
                throw new ArgumentException($"Patch operation {i} must be a JSON object, not {array[i].Type}.");
            operations.Add(new PatchOperation(
                Text(operation, "op", i) ?? throw new ArgumentException($"Patch operation {i} has no \"op\"."),
                Text(operation, "path", i) ?? throw new ArgumentException($"Patch operation {i} has no \"path\"."),
                Text(operation, "from", i),
                operation.TryGetValue("value", StringComparison.Ordinal, out var value) ? value : null));
        }
        return FromOperations(operations);
    }

    /// <summary>As <see cref="Parse(string)"/>, for UTF-8 JSON text.</summary>
    public static DocumentPatch Parse(ReadOnlySpan<byte> utf8Json)
    {
        string text;
        try
        {
            text = new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(utf8Json);
        }
        catch (DecoderFallbackException ex)
        {
            throw new ArgumentException("The patch is not valid UTF-8.", ex);
        }
        return Parse(text);
    }

    /// <summary>The patch as a JSON Patch document.</summary>
    public override string ToString() =>
        new JArray(Operations.Select(operation => operation.ToJObject())).ToString(Formatting.None);

    private static string? Text(JObject operation, string name, int index) =>
        operation.TryGetValue(name, StringComparison.Ordinal, out var value)
            ? value.Type == JTokenType.String
                ? (string)value!
                : throw new ArgumentException($"Patch operation {index}: \"{name}\" must be a string, not {value.Type}.")
            : null;
}
