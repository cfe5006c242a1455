using System.Collections.Concurrent;
using Lucene.Net.Search;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    private const int MaxParsedQueries = 64;
    private readonly ConcurrentDictionary<string, Query> _parsedQueries = new(StringComparer.Ordinal);

    /// <summary>
    /// The query parsed for this index's definition, as a constant-score query over a per-segment cached doc id set
    /// (<see cref="CachingWrapperFilter"/>, keyed by segment core, with deletions applied at search time): results are
    /// never scored, and a repeated query iterates the set its segments already computed instead of decoding postings
    /// again. A query text seen before is not parsed again. At most 64 are kept (each holds at most a compressed doc id
    /// set per segment); when full, they are dropped together.
    /// </summary>
    /// <exception cref="QueryException">The query cannot be parsed (errors are not kept).</exception>
    public Query ParseQuery(string? text)
    {
        var key = text ?? "";
        if (_parsedQueries.TryGetValue(key, out var parsed))
            return parsed;
        parsed = IndexQueryParser.Parse(text, QueryFields);
        if (_reducer is not null)
        {
            // The index also holds each document's map entries: only the groups' results answer queries.
            var results = new TermQuery(new Lucene.Net.Index.Term(Reducer.KindField, Reducer.ResultKind));
            parsed = parsed is MatchAllDocsQuery ? results : new BooleanQuery { { parsed, Occur.MUST }, { results, Occur.MUST } };
        }
        if (parsed is not MatchAllDocsQuery)
            parsed = new ConstantScoreQuery(new CachingWrapperFilter(new QueryWrapperFilter(parsed)));
        if (_parsedQueries.Count >= MaxParsedQueries)
            _parsedQueries.Clear();
        _parsedQueries.TryAdd(key, parsed);
        return parsed;
    }

    /// <summary>
    /// The query parsed for this index's definition as it is, for scoring and highlighting: term queries score, and
    /// <c>^boost</c> counts. Parsed each time (a scored query pays for its scores anyway); errors as <see cref="ParseQuery"/>.
    /// </summary>
    public Query ParseScoredQuery(string? text) => IndexQueryParser.Parse(text, Compiled);
}
