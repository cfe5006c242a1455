using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>One key of a query's order: a sortable field, ascending or descending.</summary>
internal readonly record struct SortField(int Ordinal, string Name, bool Descending)
{
    /// <summary>Parses <c>Price</c>, <c>+Price</c> or <c>-Price</c> for each entry of <paramref name="sortBy"/>.</summary>
    /// <exception cref="ArgumentException">A field the index does not have, or one that is not sortable.</exception>
    public static SortField[] Parse(IReadOnlyList<string>? sortBy, CompiledIndex index)
    {
        if (sortBy is null || sortBy.Count == 0)
            return [];
        var fields = new SortField[sortBy.Count];
        for (var i = 0; i < fields.Length; i++)
        {
            var text = sortBy[i]?.Trim();
            if (string.IsNullOrEmpty(text))
                throw new ArgumentException($"SortBy[{i}] is empty; give a field name, with '-' in front for descending.", nameof(sortBy));
            var descending = text[0] == '-';
            var name = text[0] is '-' or '+' ? text[1..] : text;
            var field = index.FindField(name);
            if (field is null || !field.Definition.IsSortable)
            {
                var sortable = index.Fields.Where(f => f.Definition.IsSortable).Select(f => f.Name).ToList();
                var why = field is null ? $"index '{index.Definition.Name}' has no field '{name}'" : $"field '{name}' has Sort None";
                throw new ArgumentException(
                    $"SortBy: cannot sort by '{text}': {why}. Sortable fields: {(sortable.Count == 0 ? "none" : string.Join(", ", sortable))}.",
                    nameof(sortBy));
            }
            fields[i] = new SortField(field.Ordinal, field.Name, descending);
        }
        return fields;
    }

    public override string ToString() => (Descending ? "-" : "") + Name;
}
