using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Extraction;

/// <summary>How Long and Double fields read numbers, at indexing and in queries alike.</summary>
internal static class NumericTerms
{
    /// <summary>-0 is indexed and queried as 0, so the two compare equal as in JSON.</summary>
    public static double Normalize(double value) => value == 0 ? 0 : value;

    /// <summary>Parses query text for a numeric field: a whole number for Long fields, any finite number for Double ones.</summary>
    /// <returns>Null, or why the text is not a number the field can hold.</returns>
    public static string? TryParse(CompiledField field, string text, out long whole, out double number)
    {
        var value = new FieldValue(text, IsNumber: true);
        number = 0;
        whole = 0;
        if (field.Definition.Sort == FieldSort.Long)
        {
            return value.TryGetInt64(out whole)
                ? null
                : $"'{text}' is not a whole number, and field '{field.Name}' is a Long field";
        }
        if (value.TryGetDouble(out number))
        {
            number = Normalize(number);
            return null;
        }
        return $"'{text}' is not a number, and field '{field.Name}' is a Double field";
    }
}
