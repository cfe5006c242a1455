using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Definitions;

public sealed partial class IndexDefinition
{
    /// <summary>
    /// Checks the definition: a valid <see cref="Name"/>, one to <see cref="MaxFields"/> fields with distinct,
    /// query-safe names, parseable paths, known sources, analyses and sort types, and no numeric sort on a
    /// full-text field.
    /// </summary>
    /// <exception cref="ArgumentException">Naming the first problem found.</exception>
    public void Validate()
    {
        IndexName.Validate(Name);
        if (EntityName is not null && string.IsNullOrWhiteSpace(EntityName))
            throw Invalid("EntityName cannot be empty or whitespace; leave it out to index every document.");
        if (Fields is null || Fields.Count == 0)
            throw Invalid($"Index '{Name}' has no fields; an index needs at least one field.");
        if (Fields.Count > MaxFields)
            throw Invalid($"Index '{Name}' has {Fields.Count} fields; at most {MaxFields} are allowed.");
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < Fields.Count; i++)
        {
            var field = Fields[i] ?? throw Invalid($"Index '{Name}': Fields[{i}] is null.");
            ValidateField(field, i);
            if (!names.Add(field.Name))
                throw Invalid($"Index '{Name}' has more than one field named '{field.Name}' (names are compared case-insensitively).");
        }
    }

    private void ValidateField(IndexFieldDefinition field, int i)
    {
        var where = $"Index '{Name}', field {i} ('{field.Name}')";
        if (string.IsNullOrEmpty(field.Name) || !IsFieldName(field.Name))
            throw Invalid($"{where}: a field name must be letters, digits, '_' or '.', starting with a letter or '_'.");
        if (field.Name.Length > 100)
            throw Invalid($"{where}: a field name can be at most 100 characters.");
        if (!Enum.IsDefined(field.Source))
            throw Invalid($"{where}: unknown Source {field.Source}; expected Data or Metadata.");
        if (!Enum.IsDefined(field.Analysis))
            throw Invalid($"{where}: unknown Analysis {field.Analysis}; expected Exact, FullText, Typed or TypedSearch.");
        if (!Enum.IsDefined(field.Sort))
            throw Invalid($"{where}: unknown Sort {field.Sort}; expected None, String, Long or Double.");
        if (field.Analysis == FieldAnalysis.FullText && field.IsNumeric)
            throw Invalid($"{where}: a FullText field cannot have Sort {field.Sort}; numeric fields are Exact.");
        if (field.Analysis is FieldAnalysis.Typed or FieldAnalysis.TypedSearch && field.Sort != FieldSort.None)
            throw Invalid($"{where}: a Typed field takes no Sort (each of its kinds is sortable through a suffix, such as '{field.Name}@num').");
        try
        {
            JsonPath.Parse(field.Path);
        }
        catch (ArgumentException ex)
        {
            throw Invalid($"{where}: {ex.Message}", ex);
        }
    }

    /// <summary>Field names must be lexable in a query without escapes.</summary>
    internal static bool IsFieldName(string name)
    {
        if (!(char.IsLetter(name[0]) || name[0] == '_'))
            return false;
        foreach (var c in name)
        {
            if (!(char.IsLetterOrDigit(c) || c is '_' or '.'))
                return false;
        }
        return true;
    }

    private static ArgumentException Invalid(string message, Exception? inner = null) => new(message, inner);
}
