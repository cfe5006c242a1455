using System.Diagnostics;
using System.Text.Json;
using Lucene.Net.Search;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;
using Mlt = Lucene.Net.Queries.Mlt.MoreLikeThis;

namespace RavenLite.Indexing;

internal sealed partial class IndexStore
{
    /// <summary>
    /// The documents of index <paramref name="indexName"/> most like document <paramref name="documentKey"/> on the
    /// index's full-text fields (Lucene's MoreLikeThis): the source document's field text is read from its JSON and
    /// analysed again (the index keeps no term vectors), its most telling terms per field (within the
    /// <paramref name="query"/>'s knobs) become a BM25-scored query, and the source itself is left out. The result is
    /// ordered by score, with <see cref="QueryResult.Scores"/>. Null when there is no such document.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="ArgumentException">A field that is not a full-text field of the index, an index without any, or a knob out of range.</exception>
    public QueryResult? MoreLikeThis(string indexName, string documentKey, MoreLikeThisQuery query, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        ArgumentException.ThrowIfNullOrEmpty(documentKey);
        ArgumentNullException.ThrowIfNull(query);
        var started = Stopwatch.GetTimestamp();
        if (query.MinTermFrequency < 1)
            throw new ArgumentOutOfRangeException(nameof(query), query.MinTermFrequency, "MinTermFrequency must be at least 1.");
        if (query.MinDocFrequency < 1)
            throw new ArgumentOutOfRangeException(nameof(query), query.MinDocFrequency, "MinDocFrequency must be at least 1.");
        if (query.MaxQueryTerms < 1 || query.MaxQueryTerms > BooleanQuery.MaxClauseCount)
            throw new ArgumentOutOfRangeException(nameof(query), query.MaxQueryTerms, $"MaxQueryTerms must be 1 to {BooleanQuery.MaxClauseCount}.");
        var paging = CheckPaging(new IndexQuery { Start = query.Start, PageSize = query.PageSize });
        var index = GetIndex(indexName);
        var fields = FullTextFields(index.Compiled, query.Fields);
        if (_documents.GetCurrent([documentKey])[0] is not { } source)
            return null;

        var lucene = index.Lucene;
        var searcher = lucene.Searchers.Acquire();
        Query like;
        try
        {
            like = Like(searcher.IndexReader, source, fields, query);
        }
        finally
        {
            lucene.Searchers.Release(searcher);
        }
        var scored = new IndexQuery { OrderByScore = true, Start = query.Start, PageSize = query.PageSize };
        return Run(index, scored, paging.PageSize, paging.Clamped, started, 0, cancellationToken,
            ScoredSearch.Excluding(like, documentKey));
    }

    private static SearchableField[] FullTextFields(CompiledIndex index, IReadOnlyList<string>? names)
    {
        var fullText = index.Fields.Select(SearchableField.Of).OfType<SearchableField>().ToArray();
        if (fullText.Length == 0)
            throw new ArgumentException($"More like this: index '{index.Definition.Name}' has no full-text field to compare documents on.", nameof(names));
        if (names is null || names.Count == 0)
            return fullText;
        return [.. names.Select(name => fullText.FirstOrDefault(f => f.Field.Name == name) is { Field: not null } found ? found : throw new ArgumentException(
            $"More like this: index '{index.Definition.Name}' has no full-text field '{name}'. Full-text fields: " +
            $"{string.Join(", ", fullText.Select(f => f.Field.Name))}.", nameof(names)))];
    }

    /// <summary>One MoreLikeThis query per field (each field's terms looked up in that field alone), any of them matching.</summary>
    private static BooleanQuery Like(Lucene.Net.Index.IndexReader reader, Storage.Documents.Document source, SearchableField[] fields, MoreLikeThisQuery query)
    {
        var like = new BooleanQuery();
        var elements = new List<JsonElement>();
        foreach (var (field, luceneName) in fields)
        {
            var text = string.Join("\n", HitHighlighter.Values(source, field, elements));
            if (text.Length == 0)
                continue;
            var mlt = new Mlt(reader)
            {
                Analyzer = FullTextAnalyzer.Instance,
                FieldNames = [luceneName],
                MinTermFreq = query.MinTermFrequency,
                MinDocFreq = query.MinDocFrequency,
                MaxQueryTerms = query.MaxQueryTerms,
            };
            using var textReader = new StringReader(text);
            if (mlt.Like(textReader, luceneName) is BooleanQuery { Clauses.Count: > 0 } terms)
                like.Add(terms, Occur.SHOULD);
        }
        return like;
    }
}
