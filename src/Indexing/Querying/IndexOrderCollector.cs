using Lucene.Net.Index;
using Lucene.Net.Search;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Collects an unsorted page in index order (doc id order, which is etag order) straight into the page's list of
/// versions: no <c>ScoreDoc</c> per hit, no scores, and a segment's key arrays are only touched while the page is
/// still filling. Counts every match for the total.
/// </summary>
internal sealed class IndexOrderCollector(SegmentKeysCache cache, int skip, int take, long afterEtag) : ICollector
{
    private AtomicReader? _reader;
    private SegmentKeys? _segment;
    private int _docBase;
    private int _skipped;

    public SearchPage Page { get; } = new(take);

    public bool AcceptsDocsOutOfOrder => false;

    public void SetScorer(Scorer scorer)
    {
    }

    public void SetNextReader(AtomicReaderContext context)
    {
        _reader = context.AtomicReader;
        _docBase = context.DocBase;
        _segment = null;
    }

    public void Collect(int doc)
    {
        Page.Total++;
        Take(doc);
    }

    /// <summary>Counts <paramref name="count"/> matches as skipped (by <c>Start</c>) without offering them one by one.</summary>
    public void Skipped(int count) => _skipped += count;

    /// <summary>Offers a match to the page without counting it (the caller knows the total).</summary>
    /// <returns>False once the page is full and a match past it was seen: nothing more is needed but the count.</returns>
    public bool Take(int doc)
    {
        if (Page.HasMore)
            return false;
        var segment = _segment ??= cache.Get(_reader!);
        var etag = segment.Etags[doc];
        if (etag <= afterEtag)
            return true;
        if (_skipped < skip)
        {
            _skipped++;
            return true;
        }
        if (Page.Versions.Count == take)
        {
            Page.HasMore = true;
            return false;
        }
        Page.Versions.Add(segment.Version(_reader!, doc));
        Page.Docs.Add(_docBase + doc);
        return true;
    }
}
