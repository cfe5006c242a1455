using System.Text.Json;
using Lucene.Net.Documents;
using Lucene.Net.Util;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// Adds a <see cref="Definitions.FieldAnalysis.Typed"/> field's values to a Lucene document, under the field of each
/// kind in <see cref="TypedValues"/>, with doc values of the first value of each kind for sorting and aggregates. Field
/// instances are reused from document to document, as <see cref="DocumentMapper"/> does.
/// </summary>
internal sealed class TypedFieldMapper
{
    private readonly CompiledField _field;
    private readonly FieldSlots _text, _ignoreCase, _number, _decimal, _instant, _search;
    private readonly SortedDocValuesField _textSort, _collatedSort, _decimalSort;
    private readonly DoubleDocValuesField _numberSort;
    private readonly NumericDocValuesField _instantSort, _countSort;
    private readonly Int64Field _count;
    private readonly StringField _null;
    private readonly List<JsonElement> _elements = [];
    private readonly List<SortedSetDocValuesField> _all = [];
    private int _allUsed;
    private readonly string _allName;

    public TypedFieldMapper(CompiledField field)
    {
        _field = field;
        var name = field.Name;
        _text = new FieldSlots(() => new StringField(name, "", Field.Store.NO));
        _ignoreCase = new FieldSlots(() => new StringField(name + TypedValues.IgnoreCase, "", Field.Store.NO));
        _number = new FieldSlots(() => new DoubleField(name + TypedValues.Number, 0, NumericTerms.DoubleType));
        _decimal = new FieldSlots(() => new StringField(name + TypedValues.Decimal, "", Field.Store.NO));
        _instant = new FieldSlots(() => new Int64Field(name + TypedValues.Instant, 0, NumericTerms.Int64Type));
        _search = new FieldSlots(() => new TextField(name + TypedValues.Search, "", Field.Store.NO));
        _textSort = new SortedDocValuesField(name, new BytesRef(16));
        _collatedSort = new SortedDocValuesField(name + TypedValues.Collated, new BytesRef(16));
        _decimalSort = new SortedDocValuesField(name + TypedValues.Decimal, new BytesRef(16));
        _numberSort = new DoubleDocValuesField(name + TypedValues.Number, 0);
        _instantSort = new NumericDocValuesField(name + TypedValues.Instant, 0);
        _countSort = new NumericDocValuesField(name + TypedValues.Count, 0);
        _count = new Int64Field(name + TypedValues.Count, 0, NumericTerms.Int64Type);
        _null = new StringField(name + TypedValues.Null, "true", Field.Store.NO);
        _allName = name + TypedValues.All;
    }

    public void Map(JsonElement root, Document mapped)
    {
        _text.Reset();
        _ignoreCase.Reset();
        _number.Reset();
        _decimal.Reset();
        _instant.Reset();
        _search.Reset();
        _elements.Clear();
        _allUsed = 0;
        _field.Path.EvaluateTyped(root, _elements, out var isNull, out var count);
        var many = _elements.Count > 1;
        if (isNull)
            mapped.Add(_null);
        if (count is { } items)
        {
            _count.SetInt64Value(items);
            _countSort.SetInt64Value(items);
            mapped.Add(_count);
            mapped.Add(_countSort);
        }
        bool sortedText = false, sortedNumber = false, sortedDecimal = false, sortedInstant = false;
        foreach (var element in _elements)
        {
            switch (element.ValueKind)
            {
                case JsonValueKind.String:
                    var text = element.GetString()!;
                    AddText(mapped, text, ref sortedText);
                    if (many)
                        AddAll(mapped, TypedValues.AllText, text);
                    IndexFields.AddExact(mapped, _ignoreCase.Next(), TypedValues.FoldCase(text));
                    if (_field.IsSearchable)
                        mapped.Add(With(_search.Next(), text));
                    if (TypedValues.TryGetInstant(text, out var ticks))
                    {
                        var instant = _instant.Next();
                        instant.SetInt64Value(ticks);
                        mapped.Add(instant);
                        if (many)
                            AddAll(mapped, TypedValues.AllInstant, ticks);
                        if (!sortedInstant)
                        {
                            _instantSort.SetInt64Value(ticks);
                            mapped.Add(_instantSort);
                            sortedInstant = true;
                        }
                    }
                    break;
                case JsonValueKind.Number:
                    var raw = element.GetRawText();
                    if (double.TryParse(raw, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var number)
                        && double.IsFinite(number))
                    {
                        number = NumericTerms.Normalize(number);
                        var numeric = _number.Next();
                        numeric.SetDoubleValue(number);
                        mapped.Add(numeric);
                        if (many)
                            AddAll(mapped, TypedValues.AllNumber, BitConverter.DoubleToInt64Bits(number));
                        if (!sortedNumber)
                        {
                            _numberSort.SetDoubleValue(number);
                            mapped.Add(_numberSort);
                            sortedNumber = true;
                        }
                    }
                    if (TypedValues.TryGetDecimal(raw, out var exact))
                    {
                        var encoded = TypedValues.EncodeDecimal(exact);
                        mapped.Add(With(_decimal.Next(), encoded));
                        if (many)
                            AddAll(mapped, TypedValues.AllDecimal, encoded);
                        if (!sortedDecimal)
                        {
                            IndexFields.SetSortValue(_decimalSort.GetBinaryValue(), encoded);
                            mapped.Add(_decimalSort);
                            sortedDecimal = true;
                        }
                    }
                    break;
                case JsonValueKind.True:
                    AddText(mapped, "true", ref sortedText);
                    if (many)
                        AddAll(mapped, TypedValues.AllText, "true");
                    break;
                case JsonValueKind.False:
                    AddText(mapped, "false", ref sortedText);
                    if (many)
                        AddAll(mapped, TypedValues.AllText, "false");
                    break;
            }
        }
    }

    /// <summary>A value of a many-valued document in <see cref="TypedValues.All"/>: its kind byte, then its text.</summary>
    private void AddAll(Document mapped, byte kind, string text)
    {
        var field = NextAll();
        var bytes = field.GetBinaryValue();
        IndexFields.SetSortValue(bytes, text);
        // The kind byte goes first: shift the text's bytes along by one.
        if (bytes.Bytes.Length < bytes.Length + 1)
        {
            var grown = new byte[bytes.Length * 2 + 1];
            Array.Copy(bytes.Bytes, grown, bytes.Length);
            bytes.Bytes = grown;
        }
        Array.Copy(bytes.Bytes, 0, bytes.Bytes, 1, bytes.Length);
        bytes.Bytes[0] = kind;
        bytes.Length++;
        mapped.Add(field);
    }

    /// <summary>A value of a many-valued document in <see cref="TypedValues.All"/>: its kind byte, then 8 big-endian bytes.</summary>
    private void AddAll(Document mapped, byte kind, long value)
    {
        var field = NextAll();
        var bytes = field.GetBinaryValue();
        if (bytes.Bytes.Length < 9)
            bytes.Bytes = new byte[9];
        bytes.Offset = 0;
        bytes.Bytes[0] = kind;
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(bytes.Bytes.AsSpan(1), value);
        bytes.Length = 9;
        mapped.Add(field);
    }

    private SortedSetDocValuesField NextAll()
    {
        if (_allUsed == _all.Count)
            _all.Add(new SortedSetDocValuesField(_allName, new BytesRef(16)));
        return _all[_allUsed++];
    }

    private void AddText(Document mapped, string text, ref bool sorted)
    {
        IndexFields.AddExact(mapped, _text.Next(), text);
        if (sorted)
            return;
        IndexFields.SetSortValue(_textSort.GetBinaryValue(), text);
        mapped.Add(_textSort);
        IndexFields.SetCollationKey(_collatedSort.GetBinaryValue(), text);
        mapped.Add(_collatedSort);
        sorted = true;
    }

    private static Field With(Field field, string value)
    {
        field.SetStringValue(value);
        return field;
    }
}
