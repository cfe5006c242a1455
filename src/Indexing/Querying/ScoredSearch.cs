using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Search.Similarities;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Runs a query that orders by relevance: BM25 (k1 1.2, b 0.75, Lucene's defaults), most relevant first, then the
/// caller's sort fields, then the indexed etag, so equal scores keep index order and the order is total. The
/// constant-score path (<see cref="PageSearch"/>) is not touched: only a query that asks for scores pays for them.
/// </summary>
internal static class ScoredSearch
{
    /// <summary>
    /// The similarity scored queries use. The index is written with Lucene's default similarity, whose length norm
    /// (boost / sqrt(terms), one byte) is the one BM25 encodes too, so BM25 reads the norms as they are.
    /// </summary>
    public static Similarity Similarity { get; } = new BM25Similarity();

    /// <summary>
    /// A searcher over the same reader that scores with <see cref="Similarity"/>; cheap (no caches of its own), made
    /// per query so the shared searchers keep the default similarity.
    /// </summary>
    public static IndexSearcher Searcher(IndexSearcher shared) => new(shared.IndexReader) { Similarity = Similarity };

    public static SearchPage Run(IndexSearcher shared, SegmentKeysCache segments, Query query, SortField[] sort,
        int start, int pageSize, CancellationToken cancellationToken = default)
    {
        using var scope = QueryCancellation.Enter(cancellationToken);
        var searcher = Searcher(shared);
        var wanted = (long)start + pageSize + 1;
        if (pageSize == 0 || start > 0)
        {
            var counter = new TotalHitCountCollector();
            searcher.Search(query, new CancellableCollector(counter));
            if (pageSize == 0 || start >= counter.TotalHits)
                return new SearchPage(0) { Total = counter.TotalHits, Scores = [] };
            wanted = Math.Min(wanted, counter.TotalHits);
        }
        ITopDocsCollector collector;
        if (sort.Length == 0)
        {
            // Score alone: ties go to the lower doc id, which is index (etag) order, as the version key would give.
            collector = TopScoreDocCollector.Create((int)Math.Min(wanted, int.MaxValue), docsScoredInOrder: false);
        }
        else
        {
            var luceneSort = SortField.ToLucene(sort).GetSort();
            var fields = new Lucene.Net.Search.SortField[luceneSort.Length + 1];
            fields[0] = Lucene.Net.Search.SortField.FIELD_SCORE;
            luceneSort.CopyTo(fields, 1);
            collector = TopFieldCollector.Create(new Sort(fields), (int)Math.Min(wanted, int.MaxValue), after: null,
                fillFields: true, trackDocScores: true, trackMaxScore: false, docsScoredInOrder: false);
        }
        searcher.Search(query, new CancellableCollector(collector));
        var hits = collector.GetTopDocs();
        var page = new SearchPage(pageSize) { Total = hits.TotalHits, HasMore = hits.ScoreDocs.Length > start + pageSize, Scores = new(pageSize) };
        var leaves = searcher.IndexReader.Leaves;
        var end = Math.Min(hits.ScoreDocs.Length, start + pageSize);
        for (var i = start; i < end; i++)
        {
            var hit = hits.ScoreDocs[i];
            var leaf = leaves[ReaderUtil.SubIndex(hit.Doc, leaves)];
            page.Versions.Add(segments.Get(leaf.AtomicReader).Version(leaf.AtomicReader, hit.Doc - leaf.DocBase));
            page.Docs.Add(hit.Doc);
            page.Scores.Add(hit.Score);
        }
        return page;
    }

    /// <summary>
    /// <paramref name="query"/> without the document of <paramref name="key"/>: the source of a more-like-this is not its
    /// own neighbour. Each doc the query matches is checked against the key its version names (no key term is indexed).
    /// </summary>
    public static Query Excluding(Query query, string key) =>
        new FilteredQuery(query, new KeyExcludingFilter(IndexFields.KeyTerm(key)), FilteredQuery.QUERY_FIRST_FILTER_STRATEGY);
}
