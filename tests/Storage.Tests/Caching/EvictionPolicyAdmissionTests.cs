using RavenLite.Caching;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>
/// The shared eviction policy's admission rule (<c>refuseFirstReadsWhenFull</c>, the document cache's): every item is
/// admitted while it fits; once admitting would evict, an item is admitted only on a read soon after a refused one.
/// Driven through a small owner like the caches' (a map beside the policy, under one lock).
/// </summary>
public sealed class EvictionPolicyAdmissionTests
{
    [Fact]
    public void Under_the_limits_every_read_is_admitted()
    {
        var cache = new ModelCache(limitBytes: 10_000, limitCount: 100);
        var random = new Random(1);

        for (var key = 0; key < 100; key++)
            Assert.True(cache.Read(key, random.Next(1, 100)), $"key {key} fits and must be admitted");

        Assert.Equal((100, 0L, 0L), (cache.Policy.Count, cache.Policy.Refusals, cache.Policy.Evictions));
        cache.AssertAccountingExact();
    }

    [Fact]
    public void When_full_a_first_read_is_refused_and_the_second_admitted()
    {
        var cache = new ModelCache(limitBytes: 1_000, limitCount: int.MaxValue);
        for (var key = 0; key < 10; key++)
            cache.Read(key, 100);

        var first = cache.Read(1_000, 100);
        var second = cache.Read(1_000, 100);

        Assert.False(first);
        Assert.True(second);
        Assert.True(cache.Contains(1_000));
        Assert.Equal((1L, 1L, 10), (cache.Policy.Refusals, cache.Policy.Evictions, cache.Policy.Count));
        cache.AssertAccountingExact();
    }

    [Fact]
    public void Without_the_rule_a_full_cache_admits_every_read()
    {
        var cache = new ModelCache(limitBytes: 1_000, limitCount: int.MaxValue, refuseFirstReadsWhenFull: false);
        for (var key = 0; key < 10; key++)
            cache.Read(key, 100);

        Assert.True(cache.Read(1_000, 100));
        Assert.Equal((0L, 1L), (cache.Policy.Refusals, cache.Policy.Evictions));
    }

    [Fact]
    public void An_entry_count_limit_makes_the_cache_full_too()
    {
        var cache = new ModelCache(limitBytes: long.MaxValue, limitCount: 5);
        for (var key = 0; key < 5; key++)
            Assert.True(cache.Read(key, 1));

        Assert.False(cache.Read(5, 1));
        Assert.True(cache.Read(5, 1));
        Assert.Equal(5, cache.Policy.Count);
    }

    [Fact]
    public void A_long_scan_when_full_evicts_no_entry_used_again_and_again()
    {
        var cache = new ModelCache(limitBytes: 100 * 100, limitCount: int.MaxValue);
        var hot = Enumerable.Range(0, 50).ToArray();
        foreach (var key in hot)
            cache.Read(key, 100);
        for (var key = 1_000; key < 1_050; key++)
            cache.Read(key, 100); // fills the cache (up to its limit, one-time reads)

        for (var scanned = 0; scanned < 100_000; scanned++)
        {
            cache.Read(10_000 + scanned, 100);
            if (scanned % 100 == 0)
            {
                foreach (var key in hot)
                    cache.Read(key, 100);
            }
        }

        Assert.All(hot, key => Assert.True(cache.Contains(key), $"hot key {key} was evicted by the scan"));
        Assert.True(cache.Policy.Refusals > 99_000, $"the scan's reads are refused ({cache.Policy.Refusals})");
        Assert.True(cache.Policy.Evictions < 1_000, $"the scan evicts almost nothing ({cache.Policy.Evictions})");
        cache.AssertAccountingExact();
    }

    [Fact]
    public void Clear_empties_the_cache_so_every_read_is_admitted_again()
    {
        var cache = new ModelCache(limitBytes: 1_000, limitCount: int.MaxValue);
        for (var key = 0; key < 20; key++)
            cache.Read(key, 100);

        cache.Clear();

        for (var key = 100; key < 110; key++)
            Assert.True(cache.Read(key, 100));
        cache.AssertAccountingExact();
    }

    /// <summary>
    /// Random streams (a hot set read often, a long tail, sizes that vary, removals and growth) against a model of the
    /// rule: an item that fits before the cache is first full, or with a tenth of the limits free, is admitted; a full
    /// cache admits an item refused by the read just before; it refuses
    /// an item never seen before except by a rare false positive of the doorkeeper's filters; the counts and bytes
    /// always equal the owner's map; the limits always hold.
    /// </summary>
    [Theory]
    [InlineData(1, 20_000, 200)]
    [InlineData(2, 5_000, 40)]
    [InlineData(3, 200_000, 3_000)]
    [InlineData(4, 50_000, 1)]
    [InlineData(5, 100_000, 10_000)]
    public void Random_streams_follow_the_admission_rule_and_keep_exact_accounting(int seed, long limitBytes, int limitCount)
    {
        var random = new Random(seed);
        var cache = new ModelCache(limitBytes, limitCount);
        var seen = new HashSet<int>();
        var firstReadsWhenFull = 0;
        var firstReadsAdmittedWhenFull = 0;
        var refusedJustBefore = -1;

        for (var step = 0; step < 50_000; step++)
        {
            var key = random.Next(4) switch
            {
                0 => random.Next(20), // hot
                1 => random.Next(2_000), // warm
                _ => random.Next(1_000_000), // mostly one-time
            };
            switch (random.Next(20))
            {
                case 0:
                    cache.Remove(key);
                    break;
                case 1:
                    cache.Grow(key, random.Next(1, 50));
                    break;
                default:
                    if (cache.Contains(key))
                    {
                        cache.Read(key, 0);
                        break;
                    }
                    var bytes = random.Next(1, 200);
                    var neverFull = cache.Policy.Evictions == 0 && cache.Policy.Refusals == 0;
                    var fits = cache.Policy.Bytes + bytes <= limitBytes && cache.Policy.Count < limitCount;
                    var tenthFree = cache.Policy.Bytes + bytes <= limitBytes - limitBytes / 10
                        && cache.Policy.Count < limitCount - Math.Max(1, limitCount / 10);
                    var firstEver = seen.Add(key);
                    var refusalsBefore = cache.Policy.Refusals;
                    var admitted = cache.Read(key, bytes);
                    var refused = cache.Policy.Refusals > refusalsBefore;
                    Assert.False(refused && admitted, $"step {step}: key {key} was refused yet cached");
                    if ((neverFull && fits) || tenthFree)
                        Assert.True(admitted, $"step {step}: key {key} fits and must be admitted");
                    else if (key == refusedJustBefore)
                        Assert.True(admitted, $"step {step}: key {key} was refused by the read just before");
                    else if (firstEver)
                    {
                        firstReadsWhenFull++;
                        if (admitted)
                            firstReadsAdmittedWhenFull++;
                    }
                    refusedJustBefore = refused ? key : -1;
                    break;
            }
            Assert.InRange(cache.Policy.Bytes, 0, limitBytes);
            Assert.InRange(cache.Policy.Count, 0, limitCount);
            if (step % 1_000 == 0)
                cache.AssertAccountingExact();
        }

        cache.AssertAccountingExact();
        Assert.True(firstReadsWhenFull > 1_000, $"the stream must fill the cache ({firstReadsWhenFull})");
        Assert.True(firstReadsAdmittedWhenFull <= firstReadsWhenFull / 50,
            $"{firstReadsAdmittedWhenFull} of {firstReadsWhenFull} first reads admitted when full (false positives only)");
    }

    /// <summary>An owner like the caches: a map beside the policy, every change under one lock.</summary>
    private sealed class ModelCache
    {
        private readonly Dictionary<int, Entry> _entries = [];
        private readonly Lock _lock = new();

        public ModelCache(long limitBytes, int limitCount, bool refuseFirstReadsWhenFull = true) =>
            Policy = new EvictionPolicy(limitBytes, limitCount, evicted => Assert.True(_entries.Remove(((Entry)evicted).Key)),
                refuseFirstReadsWhenFull);

        public EvictionPolicy Policy { get; }

        public bool Contains(int key) => _entries.ContainsKey(key);

        /// <summary>A read of <paramref name="key"/>: a hit marks it used; a miss offers it; true when it is cached after.</summary>
        public bool Read(int key, long bytes)
        {
            lock (_lock)
            {
                if (_entries.TryGetValue(key, out var hit))
                {
                    hit.Touch();
                    return true;
                }
                if (!Policy.Admits(key, bytes))
                    return false;
                var entry = new Entry(key) { ChargedBytes = bytes };
                _entries.Add(key, entry);
                Policy.Admit(entry);
                return _entries.ContainsKey(key);
            }
        }

        public void Remove(int key)
        {
            lock (_lock)
            {
                if (_entries.Remove(key, out var entry))
                    Policy.Remove(entry);
            }
        }

        public void Grow(int key, long delta)
        {
            lock (_lock)
            {
                if (_entries.TryGetValue(key, out var entry))
                    Policy.Recharge(entry, delta);
            }
        }

        public void Clear()
        {
            lock (_lock)
            {
                _entries.Clear();
                Policy.Clear();
            }
        }

        public void AssertAccountingExact()
        {
            lock (_lock)
            {
                Assert.Equal(_entries.Count, Policy.Count);
                Assert.Equal(_entries.Values.Sum(e => e.ChargedBytes), Policy.Bytes);
                Assert.All(_entries.Values, e => Assert.NotNull(e.Queue));
            }
        }
    }

    private sealed class Entry(int key) : EvictionEntry
    {
        public int Key { get; } = key;

        public override int GhostHash => Key;
    }
}
