using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Persistence;

/// <summary>
/// Segments are merged when the index commits while open, never when a near-real-time refresh flushes one, nor when
/// the close commits (a bulk load's segments would be rewritten on the way out).
/// </summary>
public sealed class MergeTests : IDisposable
{
    private readonly TestIndexes _db = new(batchSize: 1, neverCommitWhileOpen: true, refreshInterval: TimeSpan.Zero);

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Refreshes_and_the_close_leave_segments_unmerged_until_the_next_commit_while_open_merges_them()
    {
        for (var i = 0; i < 25; i++)
        {
            _db.Put($"things/{i}", $$"""{"n": {{i}}}""", "Thing");
            Assert.Equal(i + 1, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        }
        Assert.Equal(25, _db.Indexes.SegmentCount(TestDefinitions.ByEntityName));

        _db.Reopen(); // the close commits, without merging
        Assert.Equal(25, _db.Indexes.SegmentCount(TestDefinitions.ByEntityName));

        _db.Put("things/25", """{"n": 25}""", "Thing");
        Assert.Equal(26, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);
        using (_db.Indexes.BeginBackup()) // commits what is indexed, merging first
        {
        }
        _db.Put("things/26", """{"n": 26}""", "Thing"); // a refresh shows the searchers the merged segments
        Assert.Equal(27, _db.Query(TestDefinitions.ByEntityName, "Tag:Thing", pageSize: 0).TotalResults);

        Assert.InRange(_db.Indexes.SegmentCount(TestDefinitions.ByEntityName), 1, 10); // ten segments of a size merge at once
    }
}
