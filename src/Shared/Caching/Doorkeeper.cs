namespace RavenLite.Caching;

// Remembers, approximately and in little memory, the hashes of the items a full cache refused, so that one read
// again soon is recognised and admitted. Two Bloom filters, the current one and the one before: a hash is
// remembered once added to the current one; when the current one holds its capacity of hashes it becomes the one
// before and a new, empty current one begins. A hash is thus remembered for between one and two capacities of later
// refusals. About 3 bytes a remembered hash (12 bits a hash in each filter), where a HashSet<int> and a queue take about 20:
// a scan of ten million documents may pass through it. A false positive (under 1% for each filter) only admits one
// item early. Used under the owning cache's lock only.
internal sealed class Doorkeeper
{
    private const int MinCapacity = 64;
    private const int MaxCapacity = 1 << 24; // 24 MiB a filter; keeps Index's product within 64 bits
    private const int BitsPerHash = 12;
    private const int Probes = 4;

    private ulong[] _current = [];
    private ulong[] _previous = [];
    private int _added;
    private int _capacity;

    // Remembers hash; capacity (64 to 16,777,216) sizes the next filter begun.
    public void Add(int hash, int capacity)
    {
        if (_added >= _capacity)
        {
            _previous = _current;
            _capacity = Math.Clamp(capacity, MinCapacity, MaxCapacity);
            _current = new ulong[((long)_capacity * BitsPerHash + 63) / 64];
            _added = 0;
        }
        var (h1, h2) = Split(hash);
        var bits = (ulong)_current.Length * 64;
        for (var i = 0; i < Probes; i++)
        {
            var bit = Index(h1 + (uint)i * h2, bits);
            _current[bit >> 6] |= 1UL << (int)(bit & 63);
        }
        _added++;
    }

    // True when hash was added within the last one to two capacities (or, rarely, by a false positive).
    public bool Contains(int hash)
    {
        var (h1, h2) = Split(hash);
        return Contains(_current, h1, h2) || Contains(_previous, h1, h2);
    }

    public void Clear()
    {
        _current = [];
        _previous = [];
        _added = 0;
        _capacity = 0;
    }

    private static bool Contains(ulong[] filter, uint h1, uint h2)
    {
        if (filter.Length == 0)
            return false;
        var bits = (ulong)filter.Length * 64;
        for (var i = 0; i < Probes; i++)
        {
            var bit = Index(h1 + (uint)i * h2, bits);
            if ((filter[bit >> 6] & (1UL << (int)(bit & 63))) == 0)
                return false;
        }
        return true;
    }

    // Two independent-enough hashes from one (Kirsch and Mitzenmacher: probes h1 + i * h2).
    private static (uint H1, uint H2) Split(int hash)
    {
        var x = (ulong)(uint)hash * 0x9E3779B97F4A7C15UL;
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9UL;
        x ^= x >> 32;
        return ((uint)x, (uint)(x >> 32) | 1);
    }

    // Maps a 32-bit probe onto [0, bits) by multiplication (Lemire's fast range), with no division.
    private static ulong Index(uint probe, ulong bits) => (probe * bits) >> 32;
}
