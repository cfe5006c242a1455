using System.Text.Json;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// A path into a JSON object: property names separated by dots, each optionally followed by <c>[]</c> (one per
/// array level) to take every item: <c>customer.name</c>, <c>itemList[].productId</c>, <c>tags[]</c>,
/// <c>matrix[][]</c>. Property names are matched exactly (case-sensitive), as JSON has them.
/// </summary>
internal sealed class JsonPath
{
    private const int MaxLength = 1000;

    private JsonPath(string text, PathSegment[] segments)
    {
        Text = text;
        Segments = segments;
    }

    public string Text { get; }

    public IReadOnlyList<PathSegment> Segments { get; }

    /// <summary>The one property name of a path like <c>Raven-Entity-Name</c>; null for longer paths or arrays.</summary>
    public string? SingleName => Segments is [{ ArrayDepth: 0 } only] ? only.Name : null;

    /// <exception cref="ArgumentException">The path is empty, has an empty part, an index (<c>[0]</c>) or a stray bracket.</exception>
    public static JsonPath Parse(string? path)
    {
        if (string.IsNullOrWhiteSpace(path))
            throw new ArgumentException("A field path is required (such as 'itemList[].productId').", nameof(path));
        if (path.Length > MaxLength)
            throw new ArgumentException($"A field path can be at most {MaxLength} characters.", nameof(path));
        var parts = path.Split('.');
        var segments = new PathSegment[parts.Length];
        for (var i = 0; i < parts.Length; i++)
            segments[i] = ParseSegment(path, parts[i]);
        return new JsonPath(path, segments);
    }

    private static PathSegment ParseSegment(string path, string part)
    {
        var bracket = part.IndexOf('[', StringComparison.Ordinal);
        var name = bracket < 0 ? part : part[..bracket];
        if (name.Length == 0)
            throw Bad(path, "has an empty property name (two dots in a row, or a dot or '[' at the start or end)");
        foreach (var c in name)
        {
            if (char.IsControl(c) || c == ']')
                throw Bad(path, $"has a property name with '{(char.IsControl(c) ? $"U+{(int)c:X4}" : c)}' in it");
        }
        var depth = 0;
        for (var at = bracket; at >= 0 && at < part.Length; at += 2, depth++)
        {
            if (part.Length < at + 2 || part[at] != '[' || part[at + 1] != ']')
                throw Bad(path, $"has '{part[at..]}' after '{name}'; only '[]' (every item of an array) may follow a name, array indexes such as [0] are not supported");
        }
        return new PathSegment(name, depth);
    }

    private static ArgumentException Bad(string path, string problem) =>
        new($"The field path '{path}' {problem}.", nameof(path));

    /// <summary>
    /// Adds the scalar values (strings, numbers, booleans) the path reaches in <paramref name="root"/> to
    /// <paramref name="values"/>; nulls and missing properties give nothing.
    /// </summary>
    /// <returns>Null, or why part of the document could not be read (an object or array where a value was expected).</returns>
    public string? Evaluate(JsonElement root, List<JsonElement> values) => Walk(root, 0, values);

    private string? Walk(JsonElement element, int segment, List<JsonElement> values)
    {
        if (segment == Segments.Count)
        {
            switch (element.ValueKind)
            {
                case JsonValueKind.String or JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False:
                    values.Add(element);
                    return null;
                case JsonValueKind.Null:
                    return null;
                default:
                    return $"'{Text}' reaches {Describe(element.ValueKind)}, not a value; add [] to index the items of an array, or a property name to go into an object.";
            }
        }
        if (element.ValueKind == JsonValueKind.Null)
            return null;
        if (element.ValueKind != JsonValueKind.Object)
            return $"'{Text}' expects an object before '{Segments[segment].Name}' but the document has {Describe(element.ValueKind)} there.";
        return element.TryGetProperty(Segments[segment].Name, out var child)
            ? WalkItems(child, Segments[segment].ArrayDepth, segment + 1, values)
            : null;
    }

    private string? WalkItems(JsonElement element, int arrayDepth, int next, List<JsonElement> values)
    {
        if (arrayDepth == 0)
            return Walk(element, next, values);
        if (element.ValueKind == JsonValueKind.Null)
            return null;
        if (element.ValueKind != JsonValueKind.Array)
            return $"'{Text}' expects an array but the document has {Describe(element.ValueKind)} there.";
        string? firstError = null;
        foreach (var item in element.EnumerateArray())
        {
            var error = WalkItems(item, arrayDepth - 1, next, values); // keep going: the other items still count
            firstError ??= error;
        }
        return firstError;
    }

    /// <summary>
    /// The values of a typed field: like <see cref="Evaluate"/>, but arrays are entered wherever they stand (an item
    /// of <c>lines</c> for <c>lines.price</c>, the items themselves when the path ends at an array), objects at the
    /// end give nothing, and it says whether the value is null or missing (reached through objects only) and, when the
    /// path ends at an array reached through objects only, how many items it has.
    /// </summary>
    public void EvaluateTyped(JsonElement root, List<JsonElement> values, out bool isNull, out int? count)
    {
        isNull = false;
        count = null;
        var element = root;
        for (var segment = 0; segment < Segments.Count; segment++)
        {
            if (element.ValueKind == JsonValueKind.Array)
            {
                foreach (var item in element.EnumerateArray())
                    Flatten(item, segment, values);
                return;
            }
            if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty(Segments[segment].Name, out var child)
                || child.ValueKind == JsonValueKind.Null)
            {
                isNull = element.ValueKind is JsonValueKind.Object or JsonValueKind.Null;
                return;
            }
            element = child;
        }
        if (element.ValueKind == JsonValueKind.Array)
            count = element.GetArrayLength();
        Flatten(element, Segments.Count, values);
    }

    private void Flatten(JsonElement element, int segment, List<JsonElement> values)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Array:
                foreach (var item in element.EnumerateArray())
                    Flatten(item, segment, values);
                return;
            case JsonValueKind.Object when segment < Segments.Count:
                if (element.TryGetProperty(Segments[segment].Name, out var child))
                    Flatten(child, segment + 1, values);
                return;
            case JsonValueKind.String or JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False when segment == Segments.Count:
                values.Add(element);
                return;
        }
    }

    private static string Describe(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        _ => kind.ToString().ToLowerInvariant(),
    };

    /// <inheritdoc />
    public override string ToString() => Text;
}

/// <summary>One property name of a path, and how many array levels (<c>[]</c>) follow it.</summary>
internal readonly record struct PathSegment(string Name, int ArrayDepth);
