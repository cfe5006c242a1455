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
        if (Reduce is not null)
            ValidateReduce(Reduce);
    }

    /// <summary>The most group keys and aggregates a reduce may have.</summary>
    public const int MaxReduceParts = 32;

    private void ValidateReduce(ReduceDefinition reduce)
    {
        var where = $"Index '{Name}', Reduce";
        if (reduce.GroupBy is null || reduce.GroupBy.Count == 0)
            throw Invalid($"{where}: GroupBy is empty; name at least one mapped field to group by.");
        if (reduce.Aggregates is null || reduce.Aggregates.Count == 0)
            throw Invalid($"{where}: Aggregates is empty; a reduce needs at least one (such as Count).");
        if (reduce.GroupBy.Count + reduce.Aggregates.Count > MaxReduceParts)
            throw Invalid($"{where}: at most {MaxReduceParts} group keys and aggregates together are allowed.");
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var row = new RowSource();
        for (var i = 0; i < reduce.GroupBy.Count; i++)
        {
            var key = reduce.GroupBy[i];
            if (key is null)
                throw Invalid($"{where}: GroupBy[{i}] is null.");
            var field = FindField(key)
                ?? throw Invalid($"{where}: GroupBy[{i}] '{key}' is not a mapped field; group keys must name fields of the index (Fields).");
            if (key.Contains('.', StringComparison.Ordinal))
                throw Invalid($"{where}: GroupBy[{i}] '{key}' has a '.'; a group key's field name must be letters, digits and '_'.");
            if (!names.Add(key))
                throw Invalid($"{where}: GroupBy[{i}] '{key}' appears more than once.");
            row.Check(field, $"{where}: GroupBy[{i}] '{key}'");
        }
        for (var i = 0; i < reduce.Aggregates.Count; i++)
        {
            var aggregate = reduce.Aggregates[i] ?? throw Invalid($"{where}: Aggregates[{i}] is null.");
            var part = $"{where}: Aggregates[{i}] ('{aggregate.Name}')";
            if (string.IsNullOrEmpty(aggregate.Name) || !IsFieldName(aggregate.Name) || aggregate.Name.Contains('.', StringComparison.Ordinal))
                throw Invalid($"{part}: an aggregate's name must be letters, digits and '_', starting with a letter or '_'.");
            if (aggregate.Name.StartsWith('_') || aggregate.Name.Length > 100)
                throw Invalid($"{part}: an aggregate's name can be at most 100 characters and cannot start with '_'.");
            if (!names.Add(aggregate.Name))
                throw Invalid($"{part}: the name is already used by a group key or another aggregate.");
            if (!Enum.IsDefined(aggregate.Function))
                throw Invalid($"{part}: unknown Function {aggregate.Function}; expected one of {string.Join(", ", Enum.GetNames<ReduceFunction>())}.");
            if (aggregate.Function == ReduceFunction.Count)
            {
                if (aggregate.Field is not null)
                    throw Invalid($"{part}: Count takes no Field (it counts map entries).");
                continue;
            }
            if (aggregate.Field is null)
                throw Invalid($"{part}: {aggregate.Function} needs a Field (a mapped numeric field).");
            var field = FindField(aggregate.Field)
                ?? throw Invalid($"{part}: Field '{aggregate.Field}' is not a mapped field; aggregates read fields of the index (Fields).");
            if (!field.IsNumeric)
                throw Invalid($"{part}: {aggregate.Function} over '{aggregate.Field}', which is not numeric; declare the field with Sort Long or Double.");
            row.Check(field, part);
        }
    }

    /// <summary>
    /// The array whose items are the map entries: every field of the reduce that goes through an array must go through
    /// the same one (as <c>Lines[].Product</c> and <c>Lines[].Price</c> do), so the values of one entry come from one item.
    /// </summary>
    private sealed class RowSource
    {
        private string? _prefix;
        private string? _first;

        public void Check(IndexFieldDefinition field, string part)
        {
            var path = JsonPath.Parse(field.Path);
            var at = -1;
            for (var i = 0; i < path.Segments.Count; i++)
            {
                if (path.Segments[i].ArrayDepth > 0)
                {
                    at = i;
                    break;
                }
            }
            if (at < 0)
                return;
            if (field.Source != FieldSource.Data)
                throw Invalid($"{part}: the field's path '{field.Path}' goes through an array of the metadata; map entries come from arrays of the data only.");
            if (path.Segments[at].ArrayDepth > 1 || path.Segments.Skip(at + 1).Any(segment => segment.ArrayDepth > 0))
                throw Invalid($"{part}: the field's path '{field.Path}' goes through more than one array level; a map entry comes from the items of one array.");
            var prefix = string.Join('.', path.Segments.Take(at + 1).Select(segment => segment.Name)) + "[]";
            if (_prefix is null)
            {
                (_prefix, _first) = (prefix, field.Name);
                return;
            }
            if (!string.Equals(_prefix, prefix, StringComparison.Ordinal))
                throw Invalid($"{part}: the field's path goes through '{prefix}' but '{_first}' goes through '{_prefix}'; the fields of a reduce can go through one array only.");
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
