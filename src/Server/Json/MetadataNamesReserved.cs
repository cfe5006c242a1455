using System.Text.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Json;

/// <summary>Metadata names the server computes on every read, and so never stores from a request.</summary>
internal static class MetadataNamesReserved
{
    /// <summary>True for <c>@</c>-prefixed names (<c>@id</c>, <c>@etag</c>, ...) and <c>Last-Modified</c>.</summary>
    public static bool IsReserved(string name) =>
        name.StartsWith('@') || name.Equals(MetadataNames.LastModified, StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// <see cref="IsReserved(string)"/> for the property name under <paramref name="reader"/>, without making a string
    /// of it when it is plainly neither (the usual case: <c>Raven-Entity-Name</c>).
    /// </summary>
    public static bool IsReserved(ref Utf8JsonReader reader)
    {
        // Escaped names (\u0040id), names split across buffers, or names at least as long as Last-Modified (non-ASCII letters can fold to it) get the careful comparison.
        if (reader.ValueIsEscaped || reader.HasValueSequence || reader.ValueSpan.Length >= MetadataNames.LastModified.Length)
            return IsReserved(reader.GetString()!);
        return reader.ValueSpan is [(byte)'@', ..];
    }
}
