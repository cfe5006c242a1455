using RavenLite.Caching;

namespace RavenLite.Storage.Tests.Caching;

/// <summary>The admission rule's memory of refused items: two Bloom filters, the current one and the one before.</summary>
public sealed class DoorkeeperTests
{
    [Theory]
    [InlineData(1, 64)]
    [InlineData(2, 1_000)]
    [InlineData(3, 100_000)]
    public void A_hash_is_remembered_for_at_least_one_capacity_of_later_hashes(int seed, int capacity)
    {
        var random = new Random(seed);
        var doorkeeper = new Doorkeeper();
        var recent = new Queue<int>();

        for (var i = 0; i < capacity * 5; i++)
        {
            var hash = random.Next();
            doorkeeper.Add(hash, capacity);
            recent.Enqueue(hash);
            if (recent.Count > capacity)
                recent.Dequeue();
            if (i % (capacity / 8 + 1) == 0)
                Assert.All(recent, h => Assert.True(doorkeeper.Contains(h), $"hash {h} added within the last {capacity} is forgotten"));
        }
    }

    [Theory]
    [InlineData(4, 1_000)]
    [InlineData(5, 200_000)]
    public void Hashes_never_added_are_rarely_taken_for_remembered(int seed, int capacity)
    {
        var random = new Random(seed);
        var doorkeeper = new Doorkeeper();
        var added = new HashSet<int>();
        for (var i = 0; i < capacity * 2; i++)
        {
            var hash = random.Next();
            added.Add(hash);
            doorkeeper.Add(hash, capacity);
        }

        var probes = 0;
        var falsePositives = 0;
        while (probes < 100_000)
        {
            var hash = random.Next();
            if (added.Contains(hash))
                continue;
            probes++;
            if (doorkeeper.Contains(hash))
                falsePositives++;
        }

        Assert.InRange(falsePositives, 0, probes / 50); // under 1% a filter, two filters
    }

    [Fact]
    public void Old_hashes_are_forgotten_and_Clear_forgets_everything()
    {
        var doorkeeper = new Doorkeeper();
        doorkeeper.Add(42, 64);
        for (var i = 0; i < 128; i++)
            doorkeeper.Add(1_000 + i, 64);
        doorkeeper.Add(7, 64);

        Assert.False(doorkeeper.Contains(42)); // two capacities later
        Assert.True(doorkeeper.Contains(7));
        doorkeeper.Clear();
        Assert.False(doorkeeper.Contains(7));
    }
}
