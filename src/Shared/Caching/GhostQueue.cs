namespace RavenLite.Caching;

// Remembers the hashes of recently evicted one-time reads, not their documents, so that a version
// read again soon after going out is recognised as reused and goes straight to the main queue.
// A hash collision only misplaces one entry. Used under the owning cache's lock only.
internal sealed class GhostQueue
{
    private const int MinCapacity = 64;
    private readonly Queue<int> _order = new();
    private readonly HashSet<int> _members = [];

    // Remembers hash, forgetting the oldest beyond capacity.
    public void Add(int hash, int capacity)
    {
        if (!_members.Add(hash))
            return;
        _order.Enqueue(hash);
        capacity = Math.Max(capacity, MinCapacity);
        while (_order.Count > capacity)
            _members.Remove(_order.Dequeue());
    }

    public bool Contains(int hash) => _members.Contains(hash);

    // True (and forgotten) when hash was remembered.
    public bool Remove(int hash) => _members.Remove(hash);

    public void Clear()
    {
        _order.Clear();
        _members.Clear();
    }
}
