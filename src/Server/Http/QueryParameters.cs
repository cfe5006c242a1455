using System.Globalization;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Http;

/// <summary>Query-string values parsed here, so a bad value gets our own 400 message.</summary>
internal static class QueryParameters
{
    /// <summary>The non-negative whole number in <paramref name="name"/>, or <paramref name="fallback"/> when absent.</summary>
    public static int GetNonNegativeInt(HttpRequest request, string name, int fallback) =>
        GetNonNegativeInt(request, name) ?? fallback;

    /// <summary>The non-negative whole number in <paramref name="name"/>, or null when absent (or empty).</summary>
    public static int? GetNonNegativeInt(HttpRequest request, string name)
    {
        var text = GetString(request, name);
        if (string.IsNullOrWhiteSpace(text))
            return null;
        text = text.Trim();
        if (!int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
            throw RequestException.BadRequest(
                $"Query parameter '{name}' must be a whole number from 0 to {int.MaxValue}; got '{text}'.");
        if (value < 0)
            throw RequestException.BadRequest($"Query parameter '{name}' cannot be negative; got {value}.");
        return value;
    }

    /// <summary>The value of <paramref name="name"/>, or null when absent; 400 when it is given more than once.</summary>
    public static string? GetString(HttpRequest request, string name)
    {
        var values = request.Query[name];
        if (values.Count == 0)
            return null;
        if (values.Count > 1)
            throw RequestException.BadRequest($"Query parameter '{name}' was given {values.Count} times; give it once.");
        return values.ToString();
    }

    /// <summary>
    /// <c>true</c>/<c>yes</c> or <c>false</c>/<c>no</c> (any case) in <paramref name="name"/>, or
    /// <paramref name="fallback"/> when absent or empty.
    /// </summary>
    public static bool GetBoolean(HttpRequest request, string name, bool fallback)
    {
        var text = GetString(request, name)?.Trim();
        if (string.IsNullOrEmpty(text))
            return fallback;
        if (text.Equals("true", StringComparison.OrdinalIgnoreCase) || text.Equals("yes", StringComparison.OrdinalIgnoreCase))
            return true;
        if (text.Equals("false", StringComparison.OrdinalIgnoreCase) || text.Equals("no", StringComparison.OrdinalIgnoreCase))
            return false;
        throw RequestException.BadRequest($"Query parameter '{name}' must be true or false; got '{text}'.");
    }

    /// <summary>
    /// Every value of <paramref name="name"/>, each also split at commas, blanks dropped:
    /// <c>sort=-Price&amp;sort=Name</c> and <c>sort=-Price,Name</c> both give <c>["-Price", "Name"]</c>.
    /// </summary>
    public static string[] GetList(HttpRequest request, string name) =>
        [.. request.Query[name].SelectMany(value => (value ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))];
}
