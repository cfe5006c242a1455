using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Codecs;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

internal sealed partial class QueryBinder
{
    private CompiledField ResolveField(FieldName fieldName)
    {
        var (name, position) = fieldName;
        if (index.FindField(name) is { } field)
            return field;
        var fields = string.Join(", ", index.Fields.Select(f => f.Name));
        var sameButCase = index.Fields.FirstOrDefault(f => string.Equals(f.Name, name, StringComparison.OrdinalIgnoreCase));
        var hint = sameButCase is null ? "" : $" (field names are case-sensitive: did you mean '{sameButCase.Name}'?)";
        throw Error(position, $"index '{index.Definition.Name}' has no field '{name}'{hint}; its fields are {fields}");
    }

    private byte[] NumericTerm(CompiledField field, string text, int position)
    {
        var value = new FieldValue(text, IsNumber: true);
        if (field.Definition.Sort == FieldSort.Long)
        {
            return value.TryGetInt64(out var whole)
                ? TermEncoding.LongTerm(whole)
                : throw Error(position, $"'{text}' is not a whole number, and field '{field.Name}' is a Long field");
        }
        return value.TryGetDouble(out var number)
            ? TermEncoding.DoubleTerm(number)
            : throw Error(position, $"'{text}' is not a number, and field '{field.Name}' is a Double field");
    }

    private QueryException Error(int position, string problem) => new(query, position, problem);
}
