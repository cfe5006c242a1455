using System.Globalization;
using System.Text.Json;
using Lucene.Net.Documents;
using Lucene.Net.Util;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// Turns a stored document into the Lucene document one index keeps for it: the key and etag
/// (<see cref="IndexFields"/>), then per field of the definition: Exact -> <see cref="StringField"/>, FullText ->
/// <see cref="TextField"/>, Long/Double -> numeric fields; array paths give one field per value; a sortable field
/// also gets DocValues of its first value. One mapper per index, used by its one writer: the field instances are
/// reused from document to document (<see cref="FieldSlots"/>), and so is the document that holds them: a mapped
/// document is good until the next <see cref="Map"/>.
/// </summary>
internal sealed class DocumentMapper
{
    private readonly CompiledIndex _index;
    private readonly BytesRef _versionBytes = new(64);
    private readonly SortedDocValuesField _version;
    private readonly Document _mapped = new();
    private readonly FieldSlots[] _values;
    private readonly FieldSlots[] _sortValues;
    private readonly TypedFieldMapper?[] _typed;
    private readonly List<FieldValue> _read = [];
    private readonly List<JsonElement> _elements = [];
    private DateTimeOffset _lastTime;
    private string? _lastTimeText;

    public DocumentMapper(CompiledIndex index)
    {
        _index = index;
        _version = new SortedDocValuesField(IndexFields.Version, _versionBytes);
        _values = [.. index.Fields.Select(ValueSlots)];
        _sortValues = [.. index.Fields.Select(SortSlots)];
        _typed = [.. index.Fields.Select(field => field.IsTyped ? new TypedFieldMapper(field) : null)];
    }

    /// <param name="document">The document, its JSON parsed at most once.</param>
    /// <param name="errors">Receives what could not be indexed, field by field; the rest of the document is indexed regardless.</param>
    public Document Map(ParsedDocument document, List<string> errors)
    {
        var key = document.Key;
        IndexFields.SetVersion(_versionBytes, document.Etag, key);
        var mapped = _mapped;
        mapped.Fields.Clear();
        mapped.Add(_version);
        for (var i = 0; i < _index.Fields.Count; i++)
        {
            var field = _index.Fields[i];
            if (_typed[i] is { } typed)
            {
                try
                {
                    typed.Map(field.Definition.Source == FieldSource.Metadata ? document.Metadata : document.Data, mapped);
                }
                catch (JsonException ex)
                {
                    errors.Add($"Field '{field.Name}': the document's JSON could not be read: {ex.Message}");
                }
                continue;
            }
            _read.Clear();
            try
            {
                if (ReadValues(field, document) is { } problem)
                    errors.Add($"Field '{field.Name}': {problem}");
            }
            catch (JsonException ex)
            {
                errors.Add($"Field '{field.Name}': the document's JSON could not be read: {ex.Message}");
            }
            _values[i].Reset();
            _sortValues[i].Reset();
            AddValues(field, _values[i], _sortValues[i], mapped, errors);
        }
        return mapped;
    }

    private static FieldSlots ValueSlots(CompiledField field) => field.Definition.Sort switch
    {
        FieldSort.Long => new FieldSlots(() => new Int64Field(field.Name, 0, NumericTerms.Int64Type)),
        FieldSort.Double => new FieldSlots(() => new DoubleField(field.Name, 0, NumericTerms.DoubleType)),
        _ when field.IsFullText => new FieldSlots(() => new TextField(field.Name, "", Field.Store.NO)),
        _ => new FieldSlots(() => new StringField(field.Name, "", Field.Store.NO)),
    };

    private static FieldSlots SortSlots(CompiledField field) => field.Definition.Sort switch
    {
        FieldSort.Long => new FieldSlots(() => new NumericDocValuesField(field.Name, 0)),
        FieldSort.Double => new FieldSlots(() => new DoubleDocValuesField(field.Name, 0)),
        _ => new FieldSlots(() => new SortedDocValuesField(field.Name, new BytesRef(16))),
    };

    private string? ReadValues(CompiledField field, ParsedDocument document)
    {
        switch (field.Virtual)
        {
            case VirtualMetadata.EntityName:
                if (document.Header.EntityName is { } entityName)
                    _read.Add(new FieldValue(entityName, IsNumber: false));
                return null;
            case VirtualMetadata.LastModified:
                _read.Add(new FieldValue(Timestamp(document.Header.LastModified), IsNumber: false));
                return null;
        }
        var root = field.Definition.Source == FieldSource.Metadata ? document.Metadata : document.Data;
        _elements.Clear();
        var problem = field.Path.Evaluate(root, _elements);
        foreach (var element in _elements)
            _read.Add(FieldValue.From(element));
        return problem;
    }

    /// <summary>
    /// <see cref="FormatTimestamp"/> of <paramref name="time"/>, formatted once per distinct time in a row: the documents of
    /// one write transaction share theirs.
    /// </summary>
    private string Timestamp(DateTimeOffset time)
    {
        if (time != _lastTime || _lastTimeText is null)
            (_lastTime, _lastTimeText) = (time, FormatTimestamp(time));
        return _lastTimeText;
    }

    /// <summary>Fixed width, so ordinal string order is time order.</summary>
    public static string FormatTimestamp(DateTimeOffset time) =>
        time.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);

    private void AddValues(CompiledField field, FieldSlots values, FieldSlots sortValues, Document mapped, List<string> errors)
    {
        var sorted = !field.Definition.IsSortable;
        foreach (var value in _read)
        {
            switch (field.Definition.Sort)
            {
                case FieldSort.Long:
                    if (!value.TryGetInt64(out var whole))
                    {
                        errors.Add($"Field '{field.Name}': '{value.Text}' is not a whole number (the field has Sort Long).");
                        continue;
                    }
                    mapped.Add(With(values.Next(), whole));
                    if (!sorted)
                        mapped.Add(With(sortValues.Next(), whole));
                    break;
                case FieldSort.Double:
                    if (!value.TryGetDouble(out var number))
                    {
                        errors.Add($"Field '{field.Name}': '{value.Text}' is not a number (the field has Sort Double).");
                        continue;
                    }
                    number = NumericTerms.Normalize(number);
                    mapped.Add(With(values.Next(), number));
                    if (!sorted)
                        mapped.Add(With(sortValues.Next(), number));
                    break;
                default:
                    if (field.IsFullText)
                        mapped.Add(With(values.Next(), value.Text));
                    else
                        IndexFields.AddExact(mapped, values.Next(), value.Text);
                    if (!sorted)
                        mapped.Add(WithSortValue(sortValues.Next(), value.Text));
                    break;
            }
            sorted = true;
        }
    }

    private static Field With(Field field, long value)
    {
        field.SetInt64Value(value);
        return field;
    }

    private static Field With(Field field, double value)
    {
        field.SetDoubleValue(value);
        return field;
    }

    private static Field With(Field field, string value)
    {
        field.SetStringValue(value);
        return field;
    }

    /// <summary>Sets a sorted doc-values field's bytes in its own buffer: Lucene copies them when the document is added.</summary>
    private static Field WithSortValue(Field field, string value)
    {
        IndexFields.SetSortValue(field.GetBinaryValue(), value);
        return field;
    }
}
