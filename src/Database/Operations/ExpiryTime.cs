using System.Globalization;
using System.Text.Json;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

/// <summary>A document's expiry time, from its metadata's <see cref="MetadataNames.Expires"/>; looked for only when the member's name is there.</summary>
internal static class ExpiryTime
{
    private static ReadOnlySpan<byte> Name => "Raven-Expiration-Date"u8;

    /// <summary>When <paramref name="document"/> expires; null when it does not.</summary>
    public static DateTimeOffset? Of(Document document)
    {
        if (document.MetadataJson.Span.IndexOf(Name) < 0)
            return null;
        return document.Metadata.TryGetProperty(MetadataNames.Expires, out var value) && value.ValueKind == JsonValueKind.String
            ? Parse(value.GetString())
            : null;
    }

    /// <summary>When <paramref name="document"/> expires; null when it does not.</summary>
    public static DateTimeOffset? Of(RawDocument document)
    {
        if (document.MetadataBson.Span.IndexOf(Name) < 0)
            return null;
        return Parse(BsonCodec.ReadTopLevelString(document.MetadataBson.Span, MetadataNames.Expires));
    }

    /// <summary>An ISO-8601 time; without an offset, UTC. Null for anything else.</summary>
    public static DateTimeOffset? Parse(string? text) =>
        DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var at)
            ? at
            : null;
}
