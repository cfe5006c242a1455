using Microsoft.Extensions.Time.Testing;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>
/// While an index is catching up (its batch did not reach the database's last etag), its refreshes and commits come at
/// <see cref="IndexingOptions.CatchUpIntervalFactor"/> times their intervals; once caught up, at the intervals. Its
/// refreshes are not spaced out in the last batches before the etag a query waits for.
/// </summary>
public sealed class CatchUpPacingTests : IDisposable
{
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 27, 3, 0, 0, TimeSpan.Zero));
    private readonly TestIndexes _db = new();
    private readonly DocumentIndex _index;

    public CatchUpPacingTests()
    {
        using (_db.Indexes.PauseIndexing())
        {
            for (var i = 0; i < 10; i++)
                _db.Put($"carts/{i}", $$"""{"cartId": {{i}}}""", "Item");
        }
        _index = DocumentIndex.CreateEmpty(IndexDefinition.FromJson(
            """{"Name": "Paced", "Fields": [{"Name": "Tag", "Path": "Raven-Entity-Name", "Source": "Metadata"}]}"""), new IndexingOptions
        {
            DataDirectory = Path.Combine(_db.Directory, "paced"),
            CommitInterval = TimeSpan.FromSeconds(1),
            RefreshInterval = TimeSpan.FromMilliseconds(25),
            TimeProvider = _clock,
        });
    }

    public void Dispose()
    {
        _index.Dispose();
        _db.Dispose();
    }

    private void ApplyFirstFive(bool catchingUp)
    {
        using var batch = IndexingBatch.Read(_db.Documents, 0, _db.Documents.LastEtag, 5, json: false);
        Assert.True(_index.Apply(batch, _clock.GetUtcNow(), catchingUp));
    }

    [Fact]
    public void An_index_catching_up_commits_at_ten_times_its_commit_interval()
    {
        ApplyFirstFive(catchingUp: true);

        _clock.Advance(TimeSpan.FromSeconds(2));
        Assert.False(_index.CommitIfDue());
        Assert.Equal(0, _index.CommittedEtag);

        _clock.Advance(TimeSpan.FromSeconds(8));
        Assert.True(_index.CommitIfDue());
        Assert.Equal(_index.WrittenEtag, _index.CommittedEtag);
    }

    [Fact]
    public void An_index_that_caught_up_commits_at_its_commit_interval()
    {
        ApplyFirstFive(catchingUp: false);

        _clock.Advance(TimeSpan.FromSeconds(1));
        Assert.True(_index.CommitIfDue());
        Assert.Equal(_index.WrittenEtag, _index.CommittedEtag);
    }

    [Fact]
    public void An_index_catching_up_refreshes_at_ten_times_its_refresh_interval_unless_asked_now()
    {
        ApplyFirstFive(catchingUp: true);

        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.False(_index.RefreshDue(now: false));
        _clock.Advance(TimeSpan.FromMilliseconds(150));
        Assert.True(_index.RefreshDue(now: false));
    }

    [Fact]
    public void While_a_query_waits_an_index_catching_up_refreshes_at_its_refresh_interval()
    {
        ApplyFirstFive(catchingUp: true);

        _clock.Advance(TimeSpan.FromMilliseconds(20));
        var early = _index.RefreshDue(now: false, waited: true);
        _clock.Advance(TimeSpan.FromMilliseconds(5));
        var unwaited = _index.RefreshDue(now: false);
        var waited = _index.RefreshDue(now: false, waited: true);

        Assert.False(early);
        Assert.False(unwaited);
        Assert.True(waited);
    }

    [Theory]
    [InlineData(0, 8 * 4096, true)]
    [InlineData(100, 100, true)]
    [InlineData(0, 8 * 4096 + 1, false)]
    [InlineData(0, 1_000_000, false)]
    public void Only_the_last_eight_batches_before_a_waited_etag_are_its_final_stretch(long upToEtag, long lastEtag, bool expected) =>
        Assert.Equal(expected, BackgroundIndexer.InFinalStretch(upToEtag, lastEtag, batchSize: 4096));

    [Fact]
    public void A_waited_refresh_is_not_spaced_out_while_catching_up()
    {
        ApplyFirstFive(catchingUp: true);

        Assert.True(_index.RefreshDue(now: true));
    }
}
