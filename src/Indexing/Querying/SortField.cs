using Lucene.Net.Search;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using LuceneSortField = Lucene.Net.Search.SortField;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// One key of a query's order: a sortable field, ascending or descending. <see cref="Name"/> is the Lucene field
/// sorted on: the field's own name, or for a typed field the name with its kind's suffix (<c>Total@num</c>).
/// </summary>
internal readonly record struct SortField(string Name, FieldSort Kind, bool Descending)
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
            var (fieldName, suffix) = TypedValues.Split(name);
            var field = index.FindField(fieldName);
            if (field is { IsTyped: true } && TypedSortKind(suffix) is { } typedKind)
            {
                fields[i] = new SortField(name, typedKind, descending);
                continue;
            }
            if (field is null || suffix.Length > 0 || !field.Definition.IsSortable)
            {
                var sortable = index.Fields.Where(f => f.Definition.IsSortable || f.IsTyped).Select(f => f.Name).ToList();
                var why = field is null ? $"index '{index.Definition.Name}' has no field '{fieldName}'"
                    : field.IsTyped ? $"'{suffix}' is not a sortable kind of a typed field (sort by the field, or with @col, @num, @dec, @time or @count)"
                    : suffix.Length > 0 ? $"field '{fieldName}' is not a typed field, so it takes no suffix"
                    : $"field '{name}' has Sort None";
                throw new ArgumentException(
                    $"SortBy: cannot sort by '{text}': {why}. Sortable fields: {(sortable.Count == 0 ? "none" : string.Join(", ", sortable))}.",
                    nameof(sortBy));
            }
            fields[i] = new SortField(field.Name, field.Definition.Sort, descending);
        }
        return fields;
    }

    /// <summary>
    /// A typed field sorted by itself (or by its <c>@col</c> sort keys) sorts its strings; a number it holds has no
    /// string, so it would sort as missing (first), silently out of order: <c>sort=Rank</c> over numbers came back in
    /// index order. Refused while any segment holds a number in the field (<c>{field}@num</c>), naming the kinds that
    /// sort numbers.
    /// </summary>
    /// <exception cref="ArgumentException">A sort by a typed field's strings, which holds numbers.</exception>
    public static void ThrowIfTextSortMisplacesNumbers(SortField[] sort, CompiledIndex index, Lucene.Net.Index.IndexReader reader)
    {
        foreach (var field in sort)
        {
            var (name, suffix) = TypedValues.Split(field.Name);
            if (field.Kind != FieldSort.String || suffix is not (TypedValues.Text or TypedValues.Collated) || index.FindField(name) is not { IsTyped: true } typed)
                continue;
            var numbers = typed.Name + TypedValues.Number;
            if (reader.Leaves.Any(leaf => leaf.AtomicReader.FieldInfos.FieldInfo(numbers) is not null))
                throw new ArgumentException(
                    $"SortBy: cannot sort by '{field}': typed field '{typed.Name}' holds numbers, and sorting by the field itself orders its strings only " +
                    $"(numbers would come first, unordered). Sort numbers by '{typed.Name}{TypedValues.Decimal}' (exact) or '{numbers}'.", nameof(sort));
        }
    }

    /// <summary>How a typed field's kind sorts; null for a kind that has no doc values.</summary>
    private static FieldSort? TypedSortKind(string suffix) => suffix switch
    {
        TypedValues.Text or TypedValues.Collated or TypedValues.Decimal => FieldSort.String,
        TypedValues.Number => FieldSort.Double,
        TypedValues.Instant or TypedValues.Count => FieldSort.Long,
        _ => null,
    };

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
