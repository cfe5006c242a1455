using Microsoft.Extensions.Time.Testing;
using RavenLite.Indexing.Indexer;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>Issue 20: indexing failures are logged with index, etag and cause, without flooding the log.</summary>
public sealed class IndexingFailuresTests
{
    private readonly List<string> _log = [];
    private readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero));

    [Fact]
    public void A_failure_retried_many_times_is_logged_once_per_interval_with_how_many_were_left_out()
    {
        var failures = new IndexingFailures(_log.Add, _clock) { LogInterval = TimeSpan.FromSeconds(30) };

        for (var i = 0; i < 100; i++)
            failures.Failed("Orders/ByTotal", 42, new IOException("No space left on device"));
        _clock.Advance(TimeSpan.FromSeconds(29));
        failures.Failed("Orders/ByTotal", 42, new IOException("No space left on device"));
        var first = _log.ToList();
        _clock.Advance(TimeSpan.FromSeconds(1));
        failures.Failed("Orders/ByTotal", 42, new IOException("No space left on device"));

        var line = Assert.Single(first);
        Assert.Contains("Index 'Orders/ByTotal': indexing from etag 42 failed (attempt 1 since 2026-11-26 12:00:00Z)", line, StringComparison.Ordinal);
        Assert.Contains("IOException: No space left on device", line, StringComparison.Ordinal);
        Assert.Equal(2, _log.Count);
        Assert.Contains("attempt 102", _log[1], StringComparison.Ordinal);
        Assert.Contains("(100 more failures since the last message)", _log[1], StringComparison.Ordinal);
    }

    [Fact]
    public void Progress_ends_the_failure_logs_the_recovery_and_keeps_the_last_error()
    {
        var failures = new IndexingFailures(_log.Add, _clock);
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        Assert.NotNull(failures.FailingSince("Orders/ByTotal"));
        Assert.Null(failures.FailingSince("Other"));

        failures.Progressed("Orders/ByTotal");

        Assert.Null(failures.FailingSince("Orders/ByTotal"));
        Assert.Null(failures.Current("Orders/ByTotal"));
        Assert.Equal(7, failures.Last("Orders/ByTotal")!.Etag);
        Assert.Equal(_clock.GetUtcNow(), failures.Last("Orders/ByTotal")!.At);
        Assert.Equal(1, failures.Episodes("Orders/ByTotal"));
        Assert.StartsWith("Index 'Orders/ByTotal' is indexing again after 2 failed attempts since", _log[^1], StringComparison.Ordinal);
    }

    [Fact]
    public void A_failing_index_is_retried_once_per_interval_and_at_once_after_progress()
    {
        var failures = new IndexingFailures(_log.Add, _clock) { RetryInterval = TimeSpan.FromSeconds(1) };
        Assert.True(failures.IsRetryDue("Orders/ByTotal"));

        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        var rightAfter = failures.IsRetryDue("Orders/ByTotal");
        _clock.Advance(TimeSpan.FromMilliseconds(999));
        var justBefore = failures.IsRetryDue("Orders/ByTotal");
        _clock.Advance(TimeSpan.FromMilliseconds(1));
        var later = failures.IsRetryDue("Orders/ByTotal");
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        failures.Progressed("Orders/ByTotal");

        Assert.False(rightAfter);
        Assert.False(justBefore);
        Assert.True(later);
        Assert.True(failures.IsRetryDue("Orders/ByTotal"));
        Assert.True(failures.IsRetryDue("Other"));
    }

    [Fact]
    public void A_failure_of_the_indexer_as_a_whole_is_the_current_failure_of_every_index()
    {
        var failures = new IndexingFailures(_log.Add);

        failures.Failed(IndexingFailures.Indexer, 3, new InvalidOperationException("read failed"));

        Assert.Contains("read failed", failures.Current("Orders/ByTotal")!.Message, StringComparison.Ordinal);
    }
}
