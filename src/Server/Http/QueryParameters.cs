using System.Globalization;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>Query-string numbers parsed here, so a bad value gets our own 400 message.</summary>
internal static class QueryParameters
{
    /// <summary>The non-negative whole number in <paramref name="name"/>, or <paramref name="fallback"/> when absent.</summary>
    public static int GetNonNegativeInt(HttpRequest request, string name, int fallback)
    {
        var values = request.Query[name];
        if (values.Count == 0)
            return fallback;
        if (values.Count > 1)
            throw RequestException.BadRequest($"Query parameter '{name}' was given {values.Count} times; give it once.");
        var text = values.ToString().Trim();
        if (text.Length == 0)
            return fallback;
        if (!int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
            throw RequestException.BadRequest(
                $"Query parameter '{name}' must be a whole number from 0 to {int.MaxValue}; got '{text}'.");
        if (value < 0)
            throw RequestException.BadRequest($"Query parameter '{name}' cannot be negative; got {value}.");
        return value;
    }
}
