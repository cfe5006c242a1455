namespace RavenLite.Indexing.Querying;

/// <summary>Keeps the <c>capacity</c> smallest hits offered, in a max-heap: n log k instead of sorting all n.</summary>
internal sealed class TopHits(IComparer<Hit> comparer, int capacity)
{
    private readonly PriorityQueue<Hit, Hit> _heap = new(Comparer<Hit>.Create((x, y) => comparer.Compare(y, x)));

    public void Offer(Hit hit)
    {
        if (capacity <= 0)
            return;
        if (_heap.Count < capacity)
        {
            _heap.Enqueue(hit, hit);
            return;
        }
        if (comparer.Compare(hit, _heap.Peek()) < 0)
            _heap.DequeueEnqueue(hit, hit);
    }

    public List<Hit> ToSortedList()
    {
        var hits = new List<Hit>(_heap.Count);
        foreach (var (hit, _) in _heap.UnorderedItems)
            hits.Add(hit);
        hits.Sort(comparer);
        return hits;
    }
}
