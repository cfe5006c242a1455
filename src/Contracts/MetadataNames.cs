using System.Text.Json;

namespace RavenLite;

/// <summary>Metadata member names RavenLite gives meaning to, and the one rule for which of them are reserved.</summary>
public static class MetadataNames
{
    /// <summary>The collection a document belongs to (<c>Tag</c> in the built-in index).</summary>
    public const string EntityName = "Raven-Entity-Name";

    /// <summary>When the document was last written; kept beside the metadata, reported as this name.</summary>
    public const string LastModified = "Last-Modified";

    /// <summary>The document's key, as the server writes it inside <c>@metadata</c>.</summary>
    public const string Id = "@id";

    /// <summary>The document's etag (a decimal string), as the server writes it inside <c>@metadata</c>.</summary>
    public const string Etag = "@etag";

    /// <summary>
    /// When the document expires: an ISO-8601 time (<c>2026-12-01T00:00:00Z</c>; without an offset, UTC). From then on
    /// loads and queries no longer return it, and the database's expiry task deletes it (docs/operations.md). A value
    /// that is not such a time never expires.
    /// </summary>
    public const string Expires = "Raven-Expiration-Date";

    /// <summary>A scored query result's relevance (a number; higher is more relevant), as the server writes it inside <c>@metadata</c>.</summary>
    public const string IndexScore = "@index-score";

    /// <summary>
    /// A query result's highlighted fragments, as the server writes them inside <c>@metadata</c>: an object of field name
    /// to an array of fragments (HTML, the matched terms marked).
    /// </summary>
    public const string Highlights = "@highlights";

    /// <summary>The member of a document as the server writes it that holds its metadata.</summary>
    public const string Metadata = "@metadata";

    /// <summary>
    /// Names computed on every read and so never stored from a write: <c>@</c>-prefixed names (<c>@id</c>,
    /// <c>@etag</c>, ...) and <see cref="LastModified"/>, compared without regard to case.
    /// </summary>
    public static bool IsReserved(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return name.StartsWith('@') || name.Equals(LastModified, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// <see cref="IsReserved(string)"/> for the property name under <paramref name="reader"/>, without making a string
    /// of it when it is plainly neither (the usual case: <c>Raven-Entity-Name</c>).
    /// </summary>
    public static bool IsReserved(ref Utf8JsonReader reader)
    {
        // Escaped names (\u0040id), names split across buffers, or names at least as long as Last-Modified (non-ASCII letters can fold to it) get the careful comparison.
        if (reader.ValueIsEscaped || reader.HasValueSequence || reader.ValueSpan.Length >= LastModified.Length)
            return IsReserved(reader.GetString()!);
        return reader.ValueSpan is [(byte)'@', ..];
    }
}
