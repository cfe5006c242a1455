using System.Globalization;
using System.Text.Json;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Codecs;

namespace RavenLite.Indexing.Extraction;

/// <summary>Turns a document into an <see cref="IndexEntry"/> for a <see cref="CompiledIndex"/>.</summary>
internal static class IndexEntryBuilder
{
    public static IndexEntry Build(CompiledIndex index, ParsedDocument document)
    {
        var entry = new IndexEntry(document.Document.Key, document.Document.Etag, index.Fields.Count);
        var values = new List<FieldValue>();
        foreach (var field in index.Fields)
        {
            values.Clear();
            try
            {
                if (ReadValues(field, document, values) is { } problem)
                    entry.Errors.Add($"Field '{field.Name}': {problem}");
            }
            catch (JsonException ex)
            {
                entry.Errors.Add($"Field '{field.Name}': the document's JSON could not be read: {ex.Message}");
            }
            AddValues(field, values, entry);
        }
        return entry;
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

    private static void AddValues(CompiledField field, List<FieldValue> values, IndexEntry entry)
    {
        var position = 0;
        var words = new List<(string Word, int Position)>();
        foreach (var value in values)
        {
            var sortValue = field.Definition.Sort switch
            {
                FieldSort.Long => AddLong(field, value, entry),
                FieldSort.Double => AddDouble(field, value, entry),
                _ => AddString(field, value, entry, words, ref position),
            };
            if (sortValue is not null && field.Definition.IsSortable)
                entry.SortValues[field.Ordinal] ??= sortValue;
        }
    }

    private static byte[] AddString(CompiledField field, FieldValue value, IndexEntry entry,
        List<(string Word, int Position)> words, ref int position)
    {
        if (!field.IsFullText)
        {
            entry.Add(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(value.Text)), position: null);
            return SortValue.String(value.Text);
        }
        words.Clear();
        position = TextAnalyzer.Analyze(value.Text, position, words) + TextAnalyzer.ValueGap;
        foreach (var (word, at) in words)
            entry.Add(PostingKeys.FieldTerm(field.Ordinal, TermEncoding.StringTerm(word)), at);
        return SortValue.String(value.Text);
    }

    private static byte[]? AddLong(CompiledField field, FieldValue value, IndexEntry entry)
    {
        if (!value.TryGetInt64(out var number))
        {
            entry.Errors.Add($"Field '{field.Name}': '{value.Text}' is not a whole number (the field has Sort Long).");
            return null;
        }
        var term = TermEncoding.LongTerm(number);
        entry.Add(PostingKeys.FieldTerm(field.Ordinal, term), position: null);
        return term;
    }

    private static byte[]? AddDouble(CompiledField field, FieldValue value, IndexEntry entry)
    {
        if (!value.TryGetDouble(out var number))
        {
            entry.Errors.Add($"Field '{field.Name}': '{value.Text}' is not a number (the field has Sort Double).");
            return null;
        }
        var term = TermEncoding.DoubleTerm(number);
        entry.Add(PostingKeys.FieldTerm(field.Ordinal, term), position: null);
        return term;
    }
}
