using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

public sealed class DocIdSetsTests
{
    [Fact]
    public void Set_operations_match_linq_on_random_sets()
    {
        var random = new Random(42);
        for (var round = 0; round < 200; round++)
        {
            var a = RandomSet(random);
            var b = RandomSet(random);
            Assert.Equal(a.Intersect(b).Order(), DocIdSets.Intersect(a, b));
            Assert.Equal(a.Union(b).Order(), DocIdSets.Union(a, b));
            Assert.Equal(a.Except(b).Order(), DocIdSets.Except(a, b));
        }
    }

    [Fact]
    public void From_unsorted_sorts_and_removes_duplicates()
    {
        Assert.Equal([1L, 3, 7], DocIdSets.FromUnsorted([7, 3, 1, 3, 7, 7]));
    }

    private static long[] RandomSet(Random random) =>
        [.. Enumerable.Range(0, random.Next(0, 40)).Select(_ => (long)random.Next(0, 60)).Distinct().Order()];
}
