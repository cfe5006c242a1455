using Lucene.Net.Index;
using Lucene.Net.Search;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing.Querying;

/// <summary>Runs a parsed query on a searcher and picks the page: keys and etags from the per-segment arrays, never stored fields.</summary>
internal static class PageSearch
{
    /// <summary>
    /// Runs the search; <paramref name="cancellationToken"/> stops it between terms of a multi-term query and between
    /// blocks of matching documents (<see cref="CancellableCollector"/>), with an <see cref="OperationCanceledException"/>.
    /// </summary>
    public static SearchPage Run(IndexSearcher searcher, SegmentKeysCache segments, Query query, SortField[] sort,
        int start, int pageSize, PageAfter? after, CancellationToken cancellationToken = default)
    {
        using var scope = QueryCancellation.Enter(cancellationToken);
        if (pageSize == 0)
            return new SearchPage(0) { Total = Count(searcher, query) };
        return sort.Length == 0
            ? InIndexOrder(searcher, segments, query, start, pageSize, after)
            : Sorted(searcher, segments, query, sort, start, pageSize, after);
    }

    private static int Count(IndexSearcher searcher, Query query)
    {
        if (query is MatchAllDocsQuery)
            return searcher.IndexReader.NumDocs;
        var counter = new TotalHitCountCollector();
        searcher.Search(query, new CancellableCollector(counter));
        return counter.TotalHits;
    }

    private static SearchPage InIndexOrder(IndexSearcher searcher, SegmentKeysCache segments, Query query,
        int start, int pageSize, PageAfter? after)
    {
        var collector = new IndexOrderCollector(segments, start, pageSize, after?.Etag ?? long.MinValue);
        if (query is MatchAllDocsQuery)
            WalkAll(searcher.IndexReader, segments, collector, after?.Etag, start);
        else
            searcher.Search(query, new CancellableCollector(collector));
        var page = collector.Page;
        if (page.Versions.Count > 0)
            page.Last = new PageAfter(page.Versions[^1].Etag, []);
        return page;
    }

    /// <summary>
    /// <c>*:*</c> in index order: the total is Lucene's live document count, and the page is read from the live docs
    /// of the segments it falls in. A <c>Start</c> skips whole segments by their live counts (and into a segment without
    /// deletions directly); past a continuation, a binary search over the (ascending) etags finds where to start.
    /// </summary>
    private static void WalkAll(IndexReader reader, SegmentKeysCache segments, IndexOrderCollector collector, long? afterEtag, int start)
    {
        collector.Page.Total = reader.NumDocs;
        var toSkip = afterEtag is null ? start : 0;
        foreach (var leaf in reader.Leaves)
        {
            var segment = leaf.AtomicReader;
            var first = 0;
            if (toSkip > 0)
            {
                if (toSkip >= segment.NumDocs)
                {
                    collector.Skipped(segment.NumDocs);
                    toSkip -= segment.NumDocs;
                    continue;
                }
                if (segment.LiveDocs is null)
                {
                    first = toSkip;
                    collector.Skipped(toSkip);
                }
                toSkip = 0; // with deletions, the collector skips the rest of the way one live doc at a time
            }
            if (afterEtag is { } etag)
            {
                var etags = segments.Get(segment).Etags;
                if (etags.Length == 0 || etags[^1] <= etag)
                    continue;
                var found = Array.BinarySearch(etags, etag);
                first = found >= 0 ? found + 1 : ~found;
            }
            collector.SetNextReader(leaf);
            var live = segment.LiveDocs;
            for (var doc = first; doc < segment.MaxDoc; doc++)
            {
                if ((doc & CancellableCollector.CheckEvery) == 0)
                    QueryCancellation.ThrowIfCancellationRequested();
                if ((live is null || live.Get(doc)) && !collector.Take(doc))
                    return;
            }
        }
    }

    private static SearchPage Sorted(IndexSearcher searcher, SegmentKeysCache segments, Query query, SortField[] sort,
        int start, int pageSize, PageAfter? after)
    {
        // A queue of start + pageSize + 1 hits (one more says whether a next page exists); past a deep start, never
        // larger than the number of matches, so a huge Start cannot allocate a huge queue.
        var wanted = (long)start + pageSize + 1;
        if (start > 0)
        {
            var total = Count(searcher, query);
            if (start >= total)
                return new SearchPage(0) { Total = total };
            wanted = Math.Min(wanted, total);
        }
        FieldDoc? afterDoc = null;
        if (after is not null)
        {
            // The version (etag first) is the sort's last key and unique, so the doc id (which merges change) never decides.
            afterDoc = new FieldDoc(int.MaxValue, float.NaN, [.. after.SortValues, IndexFields.VersionsAfter(after.Etag)]);
        }
        var collector = TopFieldCollector.Create(SortField.ToLucene(sort), (int)Math.Min(wanted, int.MaxValue), afterDoc,
            fillFields: true, trackDocScores: false, trackMaxScore: false, docsScoredInOrder: false);
        searcher.Search(query, new CancellableCollector(collector));
        var hits = collector.GetTopDocs();
        var page = new SearchPage(pageSize) { Total = hits.TotalHits, HasMore = hits.ScoreDocs.Length > start + pageSize };
        var leaves = searcher.IndexReader.Leaves;
        var end = Math.Min(hits.ScoreDocs.Length, start + pageSize);
        for (var i = start; i < end; i++)
        {
            var hit = hits.ScoreDocs[i];
            var leaf = leaves[ReaderUtil.SubIndex(hit.Doc, leaves)];
            var keys = segments.Get(leaf.AtomicReader);
            var doc = hit.Doc - leaf.DocBase;
            page.Versions.Add(keys.Version(leaf.AtomicReader, doc));
            page.Docs.Add(hit.Doc);
        }
        if (end > start)
        {
            var fields = ((FieldDoc)hits.ScoreDocs[end - 1]).Fields;
            page.Last = new PageAfter(page.Versions[^1].Etag, fields[..^1]);
        }
        return page;
    }
}
