namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The keys an index that was opened empty may hold: a Bloom filter of every key term added since. A key not in it
/// cannot be in the index, so its document is added without the delete term <c>UpdateDocument</c> buffers (Lucene
/// looks every such term up in every older segment), and a deletion of it has nothing to delete. A false positive
/// only costs that delete term, so the filter has a fixed size and simply answers "maybe" more often as it fills.
/// Rolling the index back only removes documents, so the filter stays true across rollbacks.
/// </summary>
internal sealed class AddedKeys
{
    private const int Bits = 1 << 23; // 1 MiB: ~2% false positives at a million keys
    private const int Probes = 4;
    private readonly ulong[] _words = new ulong[Bits / 64];

    /// <summary>False when <paramref name="term"/> was certainly never added.</summary>
    public bool MayContain(string term)
    {
        var (first, step) = Hash(term);
        for (var i = 0; i < Probes; i++)
        {
            var bit = (int)((first + (ulong)i * step) & (Bits - 1));
            if ((_words[bit >> 6] & (1UL << bit)) == 0)
                return false;
        }
        return true;
    }

    public void Add(string term)
    {
        var (first, step) = Hash(term);
        for (var i = 0; i < Probes; i++)
        {
            var bit = (int)((first + (ulong)i * step) & (Bits - 1));
            _words[bit >> 6] |= 1UL << bit;
        }
    }

    /// <summary>64-bit FNV-1a over the UTF-16 code units; the probes step by its upper half (odd, so they differ).</summary>
    private static (ulong First, ulong Step) Hash(string term)
    {
        var hash = 14695981039346656037UL;
        foreach (var c in term)
        {
            hash ^= c;
            hash *= 1099511628211UL;
        }
        return (hash, (hash >> 32) | 1);
    }
}
