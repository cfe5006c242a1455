using System.Globalization;
using System.Text.Json;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.MapReduce;

/// <summary>
/// Maps a document to the entries of a map/reduce index (<see cref="MapRow"/>): one per item of the array the reduce's
/// fields go through (the values of an entry all come from the same item), or one per document when none does. A
/// value that does not fit (a string where a number is aggregated, a number too large) leaves the whole document out,
/// with a message, so a group's totals never count part of a document.
/// </summary>
internal sealed class ReduceMapper
{
    /// <summary>Values beyond this are refused, so that sums of any realistic number of them stay within decimal's range.</summary>
    private const decimal MaxMagnitude = 1e18m;

    private readonly Input[] _keys;
    private readonly Input[] _values;
    private readonly PathSegment[]? _rowPath;
    private readonly List<JsonElement> _found = [];
    private readonly List<JsonElement> _items = [];

    // When every input is a top-level property of the document's data (no array of entries, no metadata): the names
    // read, and per input the index of its name; a document is then read with one forward pass over its JSON instead
    // of parsing it into a tree (ReadTopLevel).
    private readonly byte[][]? _topLevelNames;
    private readonly int[] _topLevelOf = [];
    private readonly FieldValue?[] _topLevelValues = [];
    private static readonly JsonReaderOptions s_readerOptions = new() { MaxDepth = 1000 };

    public ReduceMapper(CompiledIndex index)
    {
        var reduce = index.Definition.Reduce ?? throw new ArgumentException("The index has no reduce.", nameof(index));
        _keys = [.. reduce.GroupBy.Select(name => Compile(index.FindField(name)!))];
        ValueFields = [.. reduce.Aggregates.Where(a => a.Field is not null).Select(a => a.Field!).Distinct(StringComparer.Ordinal)];
        _values = [.. ValueFields.Select(name => Compile(index.FindField(name)!))];
        Extremes = [.. ValueFields.Select(name => reduce.Aggregates.Any(a => a.Field == name && a.Function is ReduceFunction.Min or ReduceFunction.Max))];
        foreach (var input in _keys.Concat(_values))
        {
            if (input.RowDepth > 0)
                _rowPath = [.. input.Field.Path.Segments.Take(input.RowDepth)];
        }
        var inputs = _keys.Concat(_values).ToList();
        if (_rowPath is null && inputs.All(input => input.Field is { Virtual: VirtualMetadata.None, Path.SingleName: not null }
                && input.Field.Definition.Source != FieldSource.Metadata))
        {
            var names = inputs.Select(input => input.Field.Path.SingleName!).Distinct(StringComparer.Ordinal).ToList();
            _topLevelNames = [.. names.Select(System.Text.Encoding.UTF8.GetBytes)];
            _topLevelOf = [.. inputs.Select(input => names.IndexOf(input.Field.Path.SingleName!))];
            _topLevelValues = new FieldValue?[names.Count];
        }
    }

    /// <summary>The distinct numeric fields the aggregates read, in the order of <see cref="MapRow.Values"/>.</summary>
    public IReadOnlyList<string> ValueFields { get; }

    /// <summary>
    /// Per field of <see cref="ValueFields"/>, whether a Min or Max reads it: only then are a group's smallest and largest
    /// values kept, so removing a Sum's or an Average's largest value does not make the group be recomputed.
    /// </summary>
    public bool[] Extremes { get; }

    /// <summary>Whether a key or a value field is a whole number (<see cref="FieldSort.Long"/>).</summary>
    public bool IsWhole(string field) => _values.Concat(_keys).First(input => input.Field.Name == field).Field.Definition.Sort == FieldSort.Long;

    /// <returns>The entries (possibly none); null when the document is left out, with why in <paramref name="problems"/>.</returns>
    public List<MapRow>? Map(ParsedDocument document, List<string> problems)
    {
        try
        {
            if (_rowPath is null)
            {
                var topLevel = _topLevelNames is not null && !document.IsDataParsed && ReadTopLevel(document.DataJson.Span);
                return TryRow(document, item: null, problems, topLevel) is { } row ? [row] : null;
            }
            var rows = new List<MapRow>();
            _items.Clear();
            if (Items(document.Data, problems) is false)
                return null;
            foreach (var item in _items)
            {
                if (TryRow(document, item, problems, topLevel: false) is not { } row)
                    return null;
                rows.Add(row);
            }
            return rows;
        }
        catch (JsonException ex)
        {
            problems.Add($"The document's JSON could not be read: {ex.Message}");
            return null;
        }
    }

    private bool Items(JsonElement root, List<string> problems)
    {
        var element = root;
        for (var i = 0; i < _rowPath!.Length; i++)
        {
            if (element.ValueKind == JsonValueKind.Null)
                return true;
            if (element.ValueKind != JsonValueKind.Object)
            {
                problems.Add($"Map entries: expected an object before '{_rowPath[i].Name}', the document has {element.ValueKind} there.");
                return false;
            }
            if (!element.TryGetProperty(_rowPath[i].Name, out element))
                return true;
        }
        if (element.ValueKind == JsonValueKind.Null)
            return true;
        if (element.ValueKind != JsonValueKind.Array)
        {
            problems.Add($"Map entries: '{_rowPath[^1].Name}' is {element.ValueKind}, not an array.");
            return false;
        }
        foreach (var item in element.EnumerateArray())
            _items.Add(item);
        return true;
    }

    /// <summary>
    /// Reads the values of the top-level properties the inputs name (<see cref="_topLevelValues"/>) in one pass; false
    /// when the tree must be read after all, so that every case but the plain one (a property twice, an object or an
    /// array where a value is expected, JSON that is not an object) is answered exactly as <see cref="JsonPath"/> does.
    /// </summary>
    private bool ReadTopLevel(ReadOnlySpan<byte> json)
    {
        var names = _topLevelNames!;
        Array.Clear(_topLevelValues);
        Span<bool> seen = stackalloc bool[names.Length];
        try
        {
            var reader = new Utf8JsonReader(json, s_readerOptions);
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                return false;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var name = -1;
                for (var i = 0; i < names.Length && name < 0; i++)
                {
                    if (reader.ValueTextEquals(names[i]))
                        name = i;
                }
                reader.Read();
                if (name < 0)
                {
                    reader.Skip();
                    continue;
                }
                if (seen[name])
                    return false;
                seen[name] = true;
                if (reader.TokenType is JsonTokenType.StartObject or JsonTokenType.StartArray)
                    return false;
                _topLevelValues[name] = FieldValue.From(ref reader);
            }
            return reader.TokenType == JsonTokenType.EndObject;
        }
        catch (JsonException)
        {
            return false;
        }
    }

    // topLevel: the inputs' values are those ReadTopLevel read.
    private MapRow? TryRow(ParsedDocument document, JsonElement? item, List<string> problems, bool topLevel)
    {
        var keys = new string?[_keys.Length];
        for (var i = 0; i < _keys.Length; i++)
        {
            FieldValue? value;
            if (topLevel)
                value = _topLevelValues[_topLevelOf[i]];
            else if (!TryValue(_keys[i], document, item, problems, out value))
                return null;
            if (value is not { } key)
                continue;
            if (!_keys[i].Field.Definition.IsNumeric)
            {
                keys[i] = key.Text;
                continue;
            }
            if (!IsNumber(_keys[i], key, problems, out var number))
                return null;
            // A numeric key is its value, not its spelling: -0 (kept as a double, read back as "-0") and 0 are one group.
            keys[i] = Canonical(number);
        }
        var values = new decimal?[_values.Length];
        for (var i = 0; i < _values.Length; i++)
        {
            FieldValue? value;
            if (topLevel)
                value = _topLevelValues[_topLevelOf[_keys.Length + i]];
            else if (!TryValue(_values[i], document, item, problems, out value))
                return null;
            if (value is { } found)
            {
                if (!IsNumber(_values[i], found, problems, out var number))
                    return null;
                values[i] = number;
            }
        }
        return new MapRow(keys, values);
    }

    /// <summary>The one text of a number: no trailing zeros, no negative zero.</summary>
    private static string Canonical(decimal number) =>
        number == 0 ? "0" : (number / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture);

    private static bool IsNumber(Input input, FieldValue value, List<string> problems, out decimal number)
    {
        number = 0;
        if (!value.IsNumber)
        {
            problems.Add($"Field '{input.Field.Name}': '{value.Text}' is not a number (the field is aggregated as one); the document is left out of the index.");
            return false;
        }
        if (!decimal.TryParse(value.Text, NumberStyles.Float, CultureInfo.InvariantCulture, out number) || Math.Abs(number) > MaxMagnitude)
        {
            problems.Add($"Field '{input.Field.Name}': {value.Text} does not fit (values are aggregated exactly up to ±1e18); the document is left out of the index.");
            return false;
        }
        if (input.Field.Definition.Sort == FieldSort.Long && decimal.Truncate(number) != number)
        {
            problems.Add($"Field '{input.Field.Name}': {value.Text} is not a whole number (the field has Sort Long); the document is left out of the index.");
            return false;
        }
        return true;
    }

    /// <summary>The one value of a field for one entry (null when it has none); false when it has more than one or cannot be read.</summary>
    private bool TryValue(Input input, ParsedDocument document, JsonElement? item, List<string> problems, out FieldValue? value)
    {
        value = null;
        var field = input.Field;
        switch (field.Virtual)
        {
            case VirtualMetadata.EntityName:
                value = document.Header.EntityName is { } entityName ? new FieldValue(entityName, false) : null;
                return true;
            case VirtualMetadata.LastModified:
                value = new FieldValue(DocumentMapper.FormatTimestamp(document.Header.LastModified), false);
                return true;
        }
        _found.Clear();
        string? problem;
        if (input.RowDepth > 0)
        {
            if (input.Rest is null)
                Scalar(item!.Value, _found);
            problem = input.Rest is null ? null : input.Rest.Evaluate(item!.Value, _found);
        }
        else
        {
            problem = field.Path.Evaluate(field.Definition.Source == FieldSource.Metadata ? document.Metadata : document.Data, _found);
        }
        if (problem is not null)
        {
            problems.Add($"Field '{field.Name}': {problem}");
            return false;
        }
        if (_found.Count > 1)
        {
            problems.Add($"Field '{field.Name}': {_found.Count} values for one map entry; a group key or aggregated field takes one.");
            return false;
        }
        value = _found.Count == 1 ? FieldValue.From(_found[0]) : null;
        return true;
    }

    private static void Scalar(JsonElement element, List<JsonElement> found)
    {
        if (element.ValueKind is JsonValueKind.String or JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False)
            found.Add(element);
    }

    private static Input Compile(CompiledField field)
    {
        var segments = field.Path.Segments;
        for (var i = 0; i < segments.Count; i++)
        {
            if (segments[i].ArrayDepth > 0)
            {
                var rest = i + 1 < segments.Count ? JsonPath.Parse(string.Join('.', segments.Skip(i + 1).Select(s => s.Name))) : null;
                return new Input(field, i + 1, rest);
            }
        }
        return new Input(field, 0, null);
    }

    /// <summary>A field the reduce reads; <see cref="RowDepth"/> segments lead to the array of entries, <see cref="Rest"/> goes on from each item.</summary>
    private sealed record Input(CompiledField Field, int RowDepth, JsonPath? Rest);
}
