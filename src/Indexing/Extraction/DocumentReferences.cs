using System.Text.Json;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The ids a document refers to at a path written as in index definitions (<c>CustomerId</c>,
/// <c>Lines[].ProductId</c>): what an include loads beside the document.
/// </summary>
public static class DocumentReferences
{
    /// <summary>Adds every string the path reaches in <paramref name="data"/> to <paramref name="ids"/>; other values are skipped.</summary>
    /// <exception cref="ArgumentException">The path is not a valid field path.</exception>
    public static void Collect(JsonElement data, string path, ISet<string> ids)
    {
        ArgumentNullException.ThrowIfNull(ids);
        var values = new List<JsonElement>();
        JsonPath.Parse(path).Evaluate(data, values);
        foreach (var value in values)
        {
            if (value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } id)
                ids.Add(id);
        }
    }

    /// <summary>Checks a path before any document is read.</summary>
    /// <exception cref="ArgumentException">The path is not a valid field path.</exception>
    public static void Validate(string path) => JsonPath.Parse(path);
}
