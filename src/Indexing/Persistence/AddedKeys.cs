namespace RavenLite.Indexing.Persistence;

/// <summary>
/// The keys a map/reduce index that was opened empty may have map entries for: a Bloom filter of every key added
/// since. A key not in it cannot have entries, so its entries are added without reading the index or buffering a
/// delete term (Lucene looks every such term up in every older segment). A false positive only costs that read and
/// term, so the filter has a fixed size and simply answers "maybe" more often as it fills.
/// Rolling the index back only removes documents, so the filter stays true across rollbacks.
/// </summary>
/// <remarks>
/// Blocked: all of a key's probes fall in one 64-bit word, so a check and an add touch one cache line of the 1 MiB
/// table (which does not fit in a core's cache) instead of one per probe. The price is a few more false positives
/// (about 3% at a million keys against 2% unblocked), and a false positive only costs a delete term.
/// </remarks>
internal sealed class AddedKeys
{
    private const int Words = 1 << 17; // 1 MiB
    private readonly ulong[] _words = new ulong[Words];

    /// <summary>Where <paramref name="term"/>'s bits are: hashed once for both <see cref="MayContain"/> and <see cref="Add"/>.</summary>
    public static Slot Locate(string term)
    {
        var hash = Hash(term);
        var mask = 0UL;
        for (var probe = 0; probe < 4; probe++)
            mask |= 1UL << (int)((hash >> (32 + 6 * probe)) & 63);
        return new Slot((int)(hash & (Words - 1)), mask);
    }

    /// <summary>False when the term at <paramref name="slot"/> was certainly never added.</summary>
    public bool MayContain(Slot slot) => (_words[slot.Word] & slot.Mask) == slot.Mask;

    public void Add(Slot slot) => _words[slot.Word] |= slot.Mask;

    /// <summary>64-bit FNV-1a over the UTF-16 code units, then mixed (MurmurHash3's finalizer) so that every bit depends on every unit.</summary>
    private static ulong Hash(string term)
    {
        var hash = 14695981039346656037UL;
        foreach (var c in term)
        {
            hash ^= c;
            hash *= 1099511628211UL;
        }
        hash ^= hash >> 33;
        hash *= 0xff51afd7ed558ccdUL;
        hash ^= hash >> 33;
        hash *= 0xc4ceb9fe1a85ec53UL;
        return hash ^ (hash >> 33);
    }

    /// <summary>A term's word in the table and its bits in that word.</summary>
    public readonly record struct Slot(int Word, ulong Mask);
}
