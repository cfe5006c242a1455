using Lucene.Net.Documents;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Extraction;

/// <summary>How Long and Double fields read numbers, at indexing and in queries alike.</summary>
internal static class NumericTerms
{
    /// <summary>
    /// The bits per trie term of numeric fields, at indexing and in range queries alike (they must agree). Lucene's
    /// default, 4, indexes 16 terms per 64-bit value; 8 indexes 8 (Solr's <c>tdouble</c> default). Writing the term
    /// dictionary is most of what indexing a number costs (Lucene.Net compiles a small FST, with a 32 KB page, per block
    /// of terms), and a random number's lower trie terms are unique per document, so with 4 an index of three numeric
    /// fields spent most of its build there. The price is in range queries: each bound may visit up to 255 terms per
    /// level instead of 15, over 8 levels instead of 16.
    /// </summary>
    public const int PrecisionStep = 8;

    /// <summary>Not stored, indexed as trie terms of <see cref="PrecisionStep"/> bits.</summary>
    public static FieldType Int64Type { get; } = Frozen(Int64Field.TYPE_NOT_STORED);

    /// <inheritdoc cref="Int64Type"/>
    public static FieldType DoubleType { get; } = Frozen(DoubleField.TYPE_NOT_STORED);

    private static FieldType Frozen(FieldType template)
    {
        var type = new FieldType(template) { NumericPrecisionStep = PrecisionStep };
        type.Freeze();
        return type;
    }

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
