using RavenLite.Indexing.Storage;
using RavenLite.Storage;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Picks a page out of the matching doc ids: in index order by position (or, after a continuation, by binary
/// search past its doc id); sorted by selecting only the top start+pageSize (or, after a continuation, the
/// top pageSize of the hits past it), never sorting more than the page needs.
/// </summary>
internal static class ResultPager
{
    public static (List<Hit> Page, bool HasMore) Select(IReadTransaction tx, IndexStorage storage, long[] matches,
        SortField[] sort, int start, int pageSize, Hit? after)
    {
        return sort.Length == 0
            ? InIndexOrder(matches, start, pageSize, after)
            : Sorted(tx, storage, matches, sort, start, pageSize, after);
    }

    private static (List<Hit>, bool) InIndexOrder(long[] matches, int start, int pageSize, Hit? after)
    {
        long from = start;
        if (after is not null)
        {
            var at = Array.BinarySearch(matches, after.DocId);
            from = at >= 0 ? at + 1 : ~at;
        }
        var end = Math.Min(matches.Length, from + pageSize);
        var page = new List<Hit>((int)Math.Max(0, end - from));
        for (var i = from; i < end; i++)
            page.Add(new Hit(matches[i], []));
        return (page, end < matches.Length && pageSize > 0);
    }

    private static (List<Hit>, bool) Sorted(IReadTransaction tx, IndexStorage storage, long[] matches,
        SortField[] sort, int start, int pageSize, Hit? after)
    {
        var comparer = new HitComparer(sort);
        var wanted = Math.Min((long)start + pageSize, int.MaxValue);
        var top = new TopHits(comparer, (int)wanted);
        var candidates = 0;
        using var entries = new EntryCursor(tx, storage);
        foreach (var docId in matches)
        {
            entries.MoveTo(docId);
            var record = entries.Current;
            var values = new byte[]?[sort.Length];
            for (var i = 0; i < sort.Length; i++)
                values[i] = record.SortValue(sort[i].Ordinal);
            var hit = new Hit(docId, values);
            if (after is not null && comparer.Compare(hit, after) <= 0)
                continue;
            candidates++;
            top.Offer(hit);
        }
        var ordered = top.ToSortedList();
        var page = ordered.Count > start ? ordered.GetRange(start, Math.Min(pageSize, ordered.Count - start)) : [];
        return (page, candidates > (long)start + pageSize && pageSize > 0);
    }
}
