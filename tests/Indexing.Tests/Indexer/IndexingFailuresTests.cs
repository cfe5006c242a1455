using RavenLite.Indexing.Indexer;

namespace RavenLite.Indexing.Tests.Indexer;

/// <summary>Issue 20: indexing failures are logged with index, etag and cause, without flooding the log.</summary>
public sealed class IndexingFailuresTests
{
    private readonly List<string> _log = [];

    [Fact]
    public void A_failure_retried_many_times_is_logged_once_per_interval_with_how_many_were_left_out()
    {
        var failures = new IndexingFailures(_log.Add) { LogInterval = TimeSpan.FromMilliseconds(300) };

        for (var i = 0; i < 100; i++)
            failures.Failed("Orders/ByTotal", 42, new IOException("No space left on device"));
        var first = _log.ToList();
        Thread.Sleep(350);
        failures.Failed("Orders/ByTotal", 42, new IOException("No space left on device"));

        var line = Assert.Single(first);
        Assert.Contains("Index 'Orders/ByTotal': indexing from etag 42 failed (attempt 1 since", line, StringComparison.Ordinal);
        Assert.Contains("IOException: No space left on device", line, StringComparison.Ordinal);
        Assert.Equal(2, _log.Count);
        Assert.Contains("attempt 101", _log[1], StringComparison.Ordinal);
        Assert.Contains("(99 more failures since the last message)", _log[1], StringComparison.Ordinal);
    }

    [Fact]
    public void Progress_ends_the_failure_logs_the_recovery_and_keeps_the_last_error()
    {
        var failures = new IndexingFailures(_log.Add);
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        Assert.NotNull(failures.FailingSince("Orders/ByTotal"));
        Assert.Null(failures.FailingSince("Other"));

        failures.Progressed("Orders/ByTotal");

        Assert.Null(failures.FailingSince("Orders/ByTotal"));
        Assert.Null(failures.Current("Orders/ByTotal"));
        Assert.Equal(7, failures.Last("Orders/ByTotal")!.Etag);
        Assert.Equal(1, failures.Episodes("Orders/ByTotal"));
        Assert.StartsWith("Index 'Orders/ByTotal' is indexing again after 2 failed attempts since", _log[^1], StringComparison.Ordinal);
    }

    [Fact]
    public void A_failing_index_is_retried_once_per_interval_and_at_once_after_progress()
    {
        var failures = new IndexingFailures(_log.Add) { RetryInterval = TimeSpan.FromMilliseconds(300) };
        Assert.True(failures.IsRetryDue("Orders/ByTotal"));

        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        var rightAfter = failures.IsRetryDue("Orders/ByTotal");
        Thread.Sleep(350);
        var later = failures.IsRetryDue("Orders/ByTotal");
        failures.Failed("Orders/ByTotal", 7, new IOException("disk"));
        failures.Progressed("Orders/ByTotal");

        Assert.False(rightAfter);
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
