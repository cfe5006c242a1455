using System.Globalization;
using Microsoft.Net.Http.Headers;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>Etags on the wire: <c>ETag: "42"</c> out, <c>If-Match</c> / <c>If-None-Match</c> in.</summary>
internal static class ETags
{
    /// <summary>The header form of an etag: the number in double quotes.</summary>
    public static string ToHeader(long etag) => "\"" + ToText(etag) + "\"";

    /// <summary>The body form of an etag: the number as a string (64-bit values do not survive JavaScript numbers).</summary>
    public static string ToText(long etag) => etag.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// The expected etag for a put: <c>If-Match: "n"</c> gives n; <c>If-None-Match: *</c> gives 0 (the document
    /// must not exist yet); neither gives null (no check).
    /// </summary>
    public static long? ExpectedForPut(HttpRequest request) =>
        IfMatch(request) ?? (request.Headers.IfNoneMatch.ToString().Trim() == "*" ? 0 : null);

    /// <summary>The etag in <c>If-Match: "n"</c>, or null without the header; 400 when it is not one etag.</summary>
    public static long? IfMatch(HttpRequest request)
    {
        var ifMatch = request.Headers.IfMatch;
        if (ifMatch.Count > 0)
        {
            var value = ifMatch.ToString().Trim();
            if (value.Contains(',', StringComparison.Ordinal))
                throw RequestException.BadRequest("If-Match must name exactly one etag.");
            if (!TryParse(value, out var etag) || etag <= 0)
                throw RequestException.BadRequest($"If-Match must be a document etag such as \"42\"; got '{value}'.");
            return etag;
        }
        return null;
    }

    /// <summary>True when <c>If-None-Match</c> names <paramref name="current"/> (or is <c>*</c>): the client's copy is current.</summary>
    public static bool IfNoneMatchHits(HttpRequest request, long current) => IfNoneMatchHits(request, ToHeader(current));

    /// <summary>
    /// True when <c>If-None-Match</c> names <paramref name="currentHeader"/> (an entity tag in its quoted header
    /// form) or is <c>*</c>.
    /// </summary>
    public static bool IfNoneMatchHits(HttpRequest request, string currentHeader)
    {
        var values = request.Headers.IfNoneMatch;
        if (values.Count == 0)
            return false;
        if (!EntityTagHeaderValue.TryParseList(values, out var tags))
            return false;
        return tags.Any(tag => tag.Equals(EntityTagHeaderValue.Any) || tag.Tag.Equals(currentHeader, StringComparison.Ordinal));
    }

    /// <summary>Parses <c>"42"</c>, <c>W/"42"</c> or <c>42</c>.</summary>
    public static bool TryParse(string? text, out long etag)
    {
        var value = (text ?? "").Trim();
        if (value.StartsWith("W/", StringComparison.Ordinal))
            value = value[2..];
        if (value.Length >= 2 && value[0] == '"' && value[^1] == '"')
            value = value[1..^1];
        return long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out etag);
    }
}
