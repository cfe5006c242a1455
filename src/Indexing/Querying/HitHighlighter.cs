using System.Text;
using System.Text.Json;
using Lucene.Net.Search;
using Lucene.Net.Search.Highlight;
using RavenLite.Indexing.Extraction;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Querying;

/// <summary>A field whose words are searched: a full-text field, or a typed field's <c>@text</c> form; <see cref="LuceneName"/> holds the words.</summary>
internal readonly record struct SearchableField(CompiledField Field, string LuceneName)
{
    public static SearchableField? Of(CompiledField field) =>
        field.IsFullText ? new SearchableField(field, field.Name)
        : field.IsSearchable ? new SearchableField(field, field.Name + TypedValues.Search)
        : null;
}

/// <summary>
/// Highlights a hit's full-text fields (Lucene's <see cref="Highlighter"/>). The index stores no field text, so each
/// value is read again from the document's JSON and analysed again with <see cref="FullTextAnalyzer"/>, as it was when
/// indexed; the query's terms for that field are marked with the caller's tags and everything else is HTML-escaped.
/// Each value of a multi-valued field is highlighted on its own, so no fragment spans two values.
/// </summary>
internal static class HitHighlighter
{
    /// <summary>The fields <paramref name="options"/> names, checked against <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentException">No field, a field the index does not have or that is not full-text, or a count or length out of range.</exception>
    public static SearchableField[] Fields(HighlightOptions options, CompiledIndex index)
    {
        if (options.Fields is null || options.Fields.Count == 0)
            throw new ArgumentException("Highlight: name at least one full-text field to highlight.", nameof(options));
        if (options.FragmentCount is < 1 or > 20)
            throw new ArgumentOutOfRangeException(nameof(options), options.FragmentCount, "Highlight: FragmentCount must be 1 to 20.");
        if (options.FragmentLength is < 10 or > 10_000)
            throw new ArgumentOutOfRangeException(nameof(options), options.FragmentLength, "Highlight: FragmentLength must be 10 to 10,000 characters.");
        ArgumentNullException.ThrowIfNull(options.PreTag, nameof(options));
        ArgumentNullException.ThrowIfNull(options.PostTag, nameof(options));
        var fields = new SearchableField[options.Fields.Count];
        for (var i = 0; i < fields.Length; i++)
        {
            var name = options.Fields[i];
            if ((name is null ? null : index.FindField(name)) is not { } field || SearchableField.Of(field) is not { } searchable)
            {
                var fullText = index.Fields.Where(f => SearchableField.Of(f) is not null).Select(f => f.Name).ToList();
                throw new ArgumentException(
                    $"Highlight: index '{index.Definition.Name}' has no full-text field '{name}'. Full-text fields: " +
                    $"{(fullText.Count == 0 ? "none" : string.Join(", ", fullText))}.", nameof(options));
            }
            fields[i] = searchable;
        }
        return fields;
    }

    /// <summary>
    /// The best fragments of each of <paramref name="fields"/> in <paramref name="document"/> that hold a term of
    /// <paramref name="query"/> (the query as parsed, not the constant-score form); a field without one is left out.
    /// </summary>
    public static IReadOnlyDictionary<string, IReadOnlyList<string>> Highlight(Document document, Query query, SearchableField[] fields,
        HighlightOptions options)
    {
        var highlights = new Dictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        var elements = new List<JsonElement>();
        foreach (var (field, luceneName) in fields)
        {
            var highlighter = new Highlighter(new SimpleHTMLFormatter(options.PreTag, options.PostTag), HtmlText.Instance,
                new QueryScorer(query, luceneName));
            highlighter.TextFragmenter = new SimpleSpanFragmenter((QueryScorer)highlighter.FragmentScorer, options.FragmentLength);
            var found = new List<TextFragment>();
            foreach (var text in Values(document, field, elements))
            {
                using var tokens = FullTextAnalyzer.Instance.GetTokenStream(luceneName, text);
                foreach (var fragment in highlighter.GetBestTextFragments(tokens, text, mergeContiguousFragments: false, options.FragmentCount))
                {
                    if (fragment is { Score: > 0 })
                        found.Add(fragment);
                }
            }
            if (found.Count > 0)
            {
                // Stable: of equal scores, the earlier fragment (earlier value) first.
                highlights[field.Name] = [.. found.OrderByDescending(f => f.Score).Take(options.FragmentCount).Select(f => f.ToString())];
            }
        }
        return highlights;
    }

    /// <summary>The text of each value of <paramref name="field"/> in <paramref name="document"/>, read from its JSON as the indexer reads it.</summary>
    public static IEnumerable<string> Values(Document document, CompiledField field, List<JsonElement> elements)
    {
        if (field.Virtual == VirtualMetadata.EntityName)
            return document.EntityName is { } entityName ? [entityName] : [];
        elements.Clear();
        field.Path.Evaluate(field.Definition.Source == Definitions.FieldSource.Metadata ? document.Metadata : document.Data, elements);
        // A typed field analyses its strings only (TypedFieldMapper).
        return [.. elements.Where(element => !field.IsTyped || element.ValueKind == JsonValueKind.String).Select(element => FieldValue.From(element).Text)];
    }

    /// <summary>
    /// HTML-escapes the text around and inside the marks: <c>&amp; &lt; &gt; " '</c>, nothing else (Lucene's
    /// SimpleHTMLEncoder also turns every non-ASCII letter into a numeric entity).
    /// </summary>
    private sealed class HtmlText : IEncoder
    {
        public static HtmlText Instance { get; } = new();

        public string EncodeText(string originalText)
        {
            if (originalText.AsSpan().IndexOfAny("&<>\"'") < 0)
                return originalText;
            var escaped = new StringBuilder(originalText.Length + 16);
            foreach (var c in originalText)
            {
                escaped.Append(c switch
                {
                    '&' => "&amp;",
                    '<' => "&lt;",
                    '>' => "&gt;",
                    '"' => "&quot;",
                    '\'' => "&#39;",
                    _ => null,
                });
                if (c is not ('&' or '<' or '>' or '"' or '\''))
                    escaped.Append(c);
            }
            return escaped.ToString();
        }
    }
}
