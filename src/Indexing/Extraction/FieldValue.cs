using System.Globalization;
using System.Text.Json;

namespace RavenLite.Indexing.Extraction;

/// <summary>A scalar a path reached: its text (a JSON number as written, booleans as true/false) and whether it was a number.</summary>
internal readonly record struct FieldValue(string Text, bool IsNumber)
{
    public static FieldValue From(JsonElement element) => element.ValueKind switch
    {
        JsonValueKind.String => new FieldValue(element.GetString()!, IsNumber: false),
        JsonValueKind.Number => new FieldValue(element.GetRawText(), IsNumber: true),
        JsonValueKind.True => new FieldValue("true", IsNumber: false),
        _ => new FieldValue("false", IsNumber: false),
    };

    /// <summary>
    /// The scalar at <paramref name="reader"/>'s current token, as <see cref="From(JsonElement)"/> gives it (a number's
    /// text as written); null for a JSON null or a token that is not a scalar.
    /// </summary>
    public static FieldValue? From(ref Utf8JsonReader reader) => reader.TokenType switch
    {
        JsonTokenType.String => new FieldValue(reader.GetString()!, IsNumber: false),
        JsonTokenType.Number => new FieldValue(System.Text.Encoding.UTF8.GetString(reader.ValueSpan), IsNumber: true),
        JsonTokenType.True => new FieldValue("true", IsNumber: false),
        JsonTokenType.False => new FieldValue("false", IsNumber: false),
        _ => null,
    };

    /// <summary>Numbers and numeric strings such as "42" (whole numbers written as 42.0 count too).</summary>
    public bool TryGetInt64(out long value)
    {
        if (long.TryParse(Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value))
            return true;
        if (TryGetDouble(out var number) && Math.Floor(number) == number && number is >= long.MinValue and < 9.2233720368547758E18)
        {
            value = (long)number;
            return true;
        }
        return false;
    }

    public bool TryGetDouble(out double value) =>
        double.TryParse(Text, NumberStyles.Float, CultureInfo.InvariantCulture, out value) && double.IsFinite(value);
}
