using System.Globalization;
using System.Text;
using System.Text.Json;
using Lucene.Net.Documents;
using Lucene.Net.Util;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// Turns a stored document into the Lucene document one index keeps for it: the key and etag
/// (<see cref="IndexFields"/>), then per field of the definition: Exact -> <see cref="StringField"/>, FullText ->
/// <see cref="TextField"/>, Long/Double -> numeric fields; array paths give one field per value; a sortable field
/// also gets DocValues of its first value.
/// </summary>
internal static class DocumentMapper
{
    /// <param name="index">The index the document is mapped for.</param>
    /// <param name="document">The document, its JSON parsed at most once.</param>
    /// <param name="errors">Receives what could not be indexed, field by field; the rest of the document is indexed regardless.</param>
    public static Document Map(CompiledIndex index, ParsedDocument document, List<string> errors)
    {
        var key = document.Document.Key;
        var mapped = new Document
        {
            new StringField(IndexFields.Key, IndexFields.KeyTerm(key), Field.Store.NO),
            new BinaryDocValuesField(IndexFields.Key, new BytesRef(Encoding.UTF8.GetBytes(key))),
            new NumericDocValuesField(IndexFields.Etag, document.Document.Etag),
        };
        var values = new List<FieldValue>();
        foreach (var field in index.Fields)
        {
            values.Clear();
            try
            {
                if (ReadValues(field, document, values) is { } problem)
                    errors.Add($"Field '{field.Name}': {problem}");
            }
            catch (JsonException ex)
            {
                errors.Add($"Field '{field.Name}': the document's JSON could not be read: {ex.Message}");
            }
            AddValues(field, values, mapped, errors);
        }
        return mapped;
    }

    private static string? ReadValues(CompiledField field, ParsedDocument document, List<FieldValue> values)
    {
        switch (field.Virtual)
        {
            case VirtualMetadata.EntityName:
                if (document.Document.EntityName is { } entityName)
                    values.Add(new FieldValue(entityName, IsNumber: false));
                return null;
            case VirtualMetadata.LastModified:
                values.Add(new FieldValue(FormatTimestamp(document.Document.LastModified), IsNumber: false));
                return null;
        }
        var root = field.Definition.Source == FieldSource.Metadata ? document.Metadata : document.Data;
        var elements = new List<JsonElement>();
        var problem = field.Path.Evaluate(root, elements);
        foreach (var element in elements)
            values.Add(FieldValue.From(element));
        return problem;
    }

    /// <summary>Fixed width, so ordinal string order is time order.</summary>
    public static string FormatTimestamp(DateTimeOffset time) =>
        time.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);

    private static void AddValues(CompiledField field, List<FieldValue> values, Document mapped, List<string> errors)
    {
        var sorted = !field.Definition.IsSortable;
        foreach (var value in values)
        {
            switch (field.Definition.Sort)
            {
                case FieldSort.Long:
                    if (!value.TryGetInt64(out var whole))
                    {
                        errors.Add($"Field '{field.Name}': '{value.Text}' is not a whole number (the field has Sort Long).");
                        continue;
                    }
                    mapped.Add(new Int64Field(field.Name, whole, Field.Store.NO));
                    if (!sorted)
                        mapped.Add(new NumericDocValuesField(field.Name, whole));
                    break;
                case FieldSort.Double:
                    if (!value.TryGetDouble(out var number))
                    {
                        errors.Add($"Field '{field.Name}': '{value.Text}' is not a number (the field has Sort Double).");
                        continue;
                    }
                    number = NumericTerms.Normalize(number);
                    mapped.Add(new DoubleField(field.Name, number, Field.Store.NO));
                    if (!sorted)
                        mapped.Add(new DoubleDocValuesField(field.Name, number));
                    break;
                default:
                    mapped.Add(field.IsFullText
                        ? new TextField(field.Name, value.Text, Field.Store.NO)
                        : new StringField(field.Name, IndexFields.ExactTerm(value.Text), Field.Store.NO));
                    if (!sorted)
                        mapped.Add(new SortedDocValuesField(field.Name, IndexFields.SortValue(value.Text)));
                    break;
            }
            sorted = true;
        }
    }
}
