using System.Collections.Concurrent;
using Lucene.Net.Search;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    private const int MaxParsedQueries = 256;
    private readonly ConcurrentDictionary<string, Query> _parsedQueries = new(StringComparer.Ordinal);

    /// <summary>
    /// The query parsed for this index's definition; a query text seen before is not parsed again (a parsed Lucene
    /// query is only read by searches). At most 256 are kept; when full, they are dropped together.
    /// </summary>
    /// <exception cref="QueryException">The query cannot be parsed (errors are not kept).</exception>
    public Query ParseQuery(string? text)
    {
        var key = text ?? "";
        if (_parsedQueries.TryGetValue(key, out var parsed))
            return parsed;
        parsed = IndexQueryParser.Parse(text, Compiled);
        if (_parsedQueries.Count >= MaxParsedQueries)
            _parsedQueries.Clear();
        _parsedQueries.TryAdd(key, parsed);
        return parsed;
    }
}
