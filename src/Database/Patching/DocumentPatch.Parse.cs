using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
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
            root = Read(json, FloatParseHandling.Double);
        }
        catch (JsonReaderException ex)
        {
            throw new ArgumentException($"The patch is not valid JSON: {ex.Message}", ex);
        }
        // A double holds any number of up to 15 significant digits; where the text has longer ones, a decimal (up to
        // 28-29 digits exactly) replaces a double that is not the number sent, so that it is stored as sent (issue 28).
        if (root is JContainer && LongNumber().IsMatch(json))
            KeepExact(root, json);
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

    private static JToken Read(string json, FloatParseHandling floats)
    {
        using var reader = new JsonTextReader(new StringReader(json))
        {
            DateParseHandling = DateParseHandling.None,
            FloatParseHandling = floats,
            MaxDepth = Storage.Documents.DocumentContent.MaxDepth,
        };
        var root = JToken.ReadFrom(reader);
        if (reader.Read())
            throw new JsonReaderException("Additional text after the patch document.");
        return root;
    }

    /// <summary>
    /// Replaces each double in <paramref name="root"/> that is not the number its text in <paramref name="json"/> says
    /// by that number as a decimal, when a decimal holds it. Numbers are paired in document order with the tokens of
    /// System.Text.Json's reader, which gives their text; JSON only Newtonsoft reads (comments, say) or a name given
    /// twice (the tree keeps one) leaves the doubles as they are.
    /// </summary>
    private static void KeepExact(JToken root, string json)
    {
        var texts = new List<string>();
        try
        {
            var reader = new System.Text.Json.Utf8JsonReader(Encoding.UTF8.GetBytes(json), new System.Text.Json.JsonReaderOptions { MaxDepth = 256 });
            while (reader.Read())
            {
                if (reader.TokenType == System.Text.Json.JsonTokenType.Number)
                    texts.Add(Encoding.UTF8.GetString(reader.ValueSpan));
            }
        }
        catch (System.Text.Json.JsonException)
        {
            return;
        }
        var numbers = ((JContainer)root).Descendants().OfType<JValue>().Where(v => v.Type is JTokenType.Integer or JTokenType.Float).ToList();
        if (numbers.Count != texts.Count)
            return;
        for (var i = 0; i < numbers.Count; i++)
        {
            if (numbers[i].Value is double number
                && decimal.TryParse(texts[i], NumberStyles.Float, CultureInfo.InvariantCulture, out var exact)
                && !(decimal.TryParse(number.ToString("R", CultureInfo.InvariantCulture), NumberStyles.Float, CultureInfo.InvariantCulture, out var shortest)
                     && shortest == exact))
            {
                // Set in place: replacing the token would compare the two values, and a double past a decimal's range throws.
                numbers[i].Value = exact;
            }
        }
    }

    [GeneratedRegex("[0-9.]{16}")]
    private static partial Regex LongNumber();

    private static string? Text(JObject operation, string name, int index) =>
        operation.TryGetValue(name, StringComparison.Ordinal, out var value)
            ? value.Type == JTokenType.String
                ? (string)value!
                : throw new ArgumentException($"Patch operation {index}: \"{name}\" must be a string, not {value.Type}.")
            : null;
}
