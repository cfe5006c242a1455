using Lucene.Net.Search;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using LuceneSortField = Lucene.Net.Search.SortField;

namespace RavenLite.Indexing.Querying;

/// <summary>One key of a query's order: a sortable field, ascending or descending.</summary>
internal readonly record struct SortField(CompiledField Field, bool Descending)
{
    public string Name => Field.Name;

    public FieldSort Kind => Field.Definition.Sort;

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
            fields[i] = new SortField(field, descending);
        }
        return fields;
    }

    /// <summary>
    /// The Lucene sort: the fields' DocValues (strings in UTF-8 byte order, i.e. code-point order; a missing value
    /// first ascending, last descending), then the indexed etag, unique per document, so the order is total and a
    /// search-after point stays exact across segment merges (<see cref="IndexFields.Version"/> starts with the etag).
    /// </summary>
    public static Sort ToLucene(SortField[] fields)
    {
        var sort = new LuceneSortField[fields.Length + 1];
        for (var i = 0; i < fields.Length; i++)
        {
            var field = fields[i];
            sort[i] = field.Kind switch
            {
                FieldSort.Long => new LuceneSortField(field.Name, SortFieldType.INT64, field.Descending),
                FieldSort.Double => new LuceneSortField(field.Name, SortFieldType.DOUBLE, field.Descending),
                _ => new LuceneSortField(field.Name, SortFieldType.STRING, field.Descending),
            };
            if (field.Kind == FieldSort.Long)
                sort[i].SetMissingValue(J2N.Numerics.Int64.GetInstance(long.MinValue));
            else if (field.Kind == FieldSort.Double)
                sort[i].SetMissingValue(J2N.Numerics.Double.GetInstance(double.NegativeInfinity));
        }
        sort[^1] = new LuceneSortField(IndexFields.Version, SortFieldType.STRING);
        return new Sort(sort);
    }

    public override string ToString() => (Descending ? "-" : "") + Name;
}
