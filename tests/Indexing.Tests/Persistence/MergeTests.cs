using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>Segments are merged when the index commits, never when a near-real-time refresh flushes one.</summary>
public sealed class MergeTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 1, neverCommitWhileOpen: true, refreshInterval: TimeSpan.Zero);

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Refreshes_leave_their_segments_unmerged_until_the_next_commit_merges_them()
    {
        for (var i = 0; i < 25; i++)
        {
            _db.Put($"things/{i}", $$"""{"n": {{i}}}""", "Thing");
            Assert.Equal(i + 1, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        }
        var refreshed = _db.Indexes.SegmentCount(TestDefinitions.ByEntityName);

        _db.Reopen(); // the close commits

        Assert.Equal(25, refreshed); // the merge policy merges ten segments of a size at once
        Assert.InRange(_db.Indexes.SegmentCount(TestDefinitions.ByEntityName), 1, 9);
        Assert.Equal(25, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
    }
}
