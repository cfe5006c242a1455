using System.Diagnostics;
using System.Globalization;
using RavenLite.Indexing;

namespace RavenLite.Server.Indexes;

/// <summary>
/// Waits, without holding a thread, until an index has indexed every write the database had when the wait began.
/// </summary>
/// <remarks>
/// The embedded <see cref="IndexStore.Query"/> can wait too, but by blocking its thread. On a server that would
/// tie up a thread-pool thread per waiting request for up to the timeout, so a burst of waiting queries could
/// starve the pool. Instead this polls the index's in-memory progress (no transaction, no I/O) with
/// <c>await Task.Delay</c>, 1 ms doubling to 25 ms, after waking the indexer; the query itself then runs without
/// waiting. The cost is up to one poll interval of extra latency, which matches the indexer's own idle polling.
/// </remarks>
internal static class NonStaleWait
{
    private static readonly TimeSpan FirstDelay = TimeSpan.FromMilliseconds(1);
    private static readonly TimeSpan LongestDelay = TimeSpan.FromMilliseconds(25);

    /// <summary>
    /// Returns once index <paramref name="indexName"/> has indexed up to the database's last etag as read now.
    /// </summary>
    /// <exception cref="IndexNotFoundException">There is no such index.</exception>
    /// <exception cref="TimeoutException">It has not caught up within <paramref name="timeout"/>.</exception>
    public static async Task WaitAsync(IndexStore indexes, string indexName, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var first = indexes.GetStatistics(indexName);
        var cutoff = first.DatabaseLastEtag;
        if (first.LastIndexedEtag >= cutoff)
            return;
        indexes.NotifyDocumentsChanged();
        var started = Stopwatch.GetTimestamp();
        var delay = FirstDelay;
        while (true)
        {
            var remaining = timeout - Stopwatch.GetElapsedTime(started);
            if (remaining <= TimeSpan.Zero)
                throw StillStale(indexes, indexName, timeout, cutoff);
            await Task.Delay(delay < remaining ? delay : remaining, cancellationToken);
            if (indexes.GetStatistics(indexName).LastIndexedEtag >= cutoff)
                return;
            delay = delay * 2 < LongestDelay ? delay * 2 : LongestDelay;
        }
    }

    private static TimeoutException StillStale(IndexStore indexes, string indexName, TimeSpan timeout, long cutoff)
    {
        var now = indexes.GetStatistics(indexName);
        return new TimeoutException(string.Create(CultureInfo.InvariantCulture,
            $"Index '{now.Name}' is still stale after waiting {timeout.TotalSeconds:0.###} s: it has indexed up to etag " +
            $"{now.LastIndexedEtag}, but the database was at etag {cutoff} when the query began " +
            $"({cutoff - now.LastIndexedEtag} etags behind) and is at {now.DatabaseLastEtag} now. Retry, or give a longer timeout."));
    }
}
