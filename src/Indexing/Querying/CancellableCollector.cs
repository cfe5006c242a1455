using Lucene.Net.Index;
using Lucene.Net.Search;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Passes every hit to <c>inner</c>, and every <see cref="CheckEvery"/>+1 hits (and at each segment) checks whether the
/// search was cancelled (<see cref="QueryCancellation"/>), so a query over many matches stops soon after its caller gives up.
/// </summary>
internal sealed class CancellableCollector(ICollector inner) : ICollector
{
    /// <summary>A mask: the check runs when the hit count has these bits clear (every 4,096 hits).</summary>
    public const int CheckEvery = 4095;

    private int _count;

    public bool AcceptsDocsOutOfOrder => inner.AcceptsDocsOutOfOrder;

    public void Collect(int doc)
    {
        if ((++_count & CheckEvery) == 0)
            QueryCancellation.ThrowIfCancellationRequested();
        inner.Collect(doc);
    }

    public void SetNextReader(AtomicReaderContext context)
    {
        QueryCancellation.ThrowIfCancellationRequested();
        inner.SetNextReader(context);
    }

    public void SetScorer(Scorer scorer) => inner.SetScorer(scorer);
}
