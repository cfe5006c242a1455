using RavenLite.Indexing.Codecs;

namespace RavenLite.Indexing.Querying;

/// <summary>A matching document as sorting sees it: its doc id and the values of the sort fields.</summary>
internal sealed record Hit(long DocId, byte[]?[] SortValues);

/// <summary>Orders hits by the sort fields, then by doc id (index order), so the order is total and search-after is exact.</summary>
internal sealed class HitComparer(SortField[] sort) : IComparer<Hit>
{
    public int Compare(Hit? x, Hit? y)
    {
        for (var i = 0; i < sort.Length; i++)
        {
            var order = SortValue.Compare(x!.SortValues[i], y!.SortValues[i]);
            if (order != 0)
                return sort[i].Descending ? -order : order;
        }
        return x!.DocId.CompareTo(y!.DocId);
    }
}
