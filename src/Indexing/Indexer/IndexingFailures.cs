using System.Collections.Concurrent;

namespace RavenLite.Indexing.Indexer;

/// <summary>
/// What the indexer could not do, per index: the failure under way (since when, at which etag, why), kept until the
/// index makes progress again, and the last one, kept after. Logs each index's first failure at once and then at most
/// one line per <see cref="LogInterval"/> with how many were left out, so a failing disk, retried many times a second,
/// does not flood the log; logs again when the index recovers. A failing index is retried once per
/// <see cref="RetryInterval"/>, not in the indexer's tight loop.
/// </summary>
/// <param name="log">Where the lines go.</param>
/// <param name="time">The clock the intervals and the errors' timestamps are read from; the system clock when null.</param>
internal sealed class IndexingFailures(Action<string> log, TimeProvider? time = null)
{
    private readonly TimeProvider _time = time ?? TimeProvider.System;

    /// <summary>The name failures outside any one index (reading a batch, purging tombstones) are kept under.</summary>
    public const string Indexer = "the indexer";

    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>The shortest time between two log lines about one index's failures.</summary>
    public TimeSpan LogInterval { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How long a failing index waits before its next attempt, so a full disk is not retried in a tight loop.</summary>
    public TimeSpan RetryInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Records that <paramref name="index"/> failed to index from <paramref name="etag"/>, and logs it unless it logged lately.</summary>
    public void Failed(string index, long etag, Exception cause)
    {
        var now = _time.GetUtcNow();
        var entry = _entries.GetOrAdd(index, _ => new Entry());
        string? line = null;
        lock (entry)
        {
            var error = new IndexingError(index, "", $"Indexing from etag {etag} failed and is retried: {cause.GetType().Name}: {cause.Message}", now, etag);
            if (entry.FailingSince is null)
            {
                entry.FailingSince = now;
                entry.Episodes++;
                entry.Attempts = 0;
            }
            entry.Attempts++;
            entry.Last = error;
            if (entry.LoggedAt is { } logged && now - logged < LogInterval)
            {
                entry.Unlogged++;
                return;
            }
            var left = entry.Unlogged == 0 ? "" : $" ({entry.Unlogged} more failures since the last message)";
            line = $"Index '{index}': indexing from etag {etag} failed (attempt {entry.Attempts} since {entry.FailingSince:u}){left}; " +
                $"it is retried: {cause}";
            entry.LoggedAt = now;
            entry.Unlogged = 0;
        }
        log(line);
    }

    /// <summary>Records that <paramref name="index"/> made progress; logs the recovery when it had been failing.</summary>
    public void Progressed(string index)
    {
        if (!_entries.TryGetValue(index, out var entry))
            return;
        string? line = null;
        lock (entry)
        {
            if (entry.FailingSince is { } since)
                line = $"Index '{index}' is indexing again after {entry.Attempts} failed attempts since {since:u}.";
            entry.FailingSince = null;
            entry.LoggedAt = null;
            entry.Unlogged = 0;
        }
        if (line is not null)
            log(line);
    }

    /// <summary>Whether <paramref name="index"/> may be given a batch now: it is not failing, or its last attempt is <see cref="RetryInterval"/> old.</summary>
    public bool IsRetryDue(string index) =>
        Read<bool?>(index, e => e.FailingSince is null || e.Last is null || _time.GetUtcNow() - e.Last.At >= RetryInterval) ?? true;

    /// <summary>Since when <paramref name="index"/> has been failing to make progress; null when it is not.</summary>
    public DateTimeOffset? FailingSince(string index) => Read(index, e => e.FailingSince);

    /// <summary>The last failure of <paramref name="index"/>, whether or not it has recovered since.</summary>
    public IndexingError? Last(string index) => Read(index, e => e.Last);

    /// <summary>How many times <paramref name="index"/> started failing (however often each time was retried).</summary>
    public long Episodes(string index) => Read(index, e => e.Episodes);

    /// <summary>The failure under way for <paramref name="index"/> or, failing that, for the indexer as a whole.</summary>
    public IndexingError? Current(string index) =>
        FailingSince(index) is not null ? Last(index) : FailingSince(Indexer) is not null ? Last(Indexer) : null;

    /// <summary>Forgets <paramref name="index"/> (deleted or redefined).</summary>
    public void Forget(string index) => _entries.TryRemove(index, out _);

    private T? Read<T>(string index, Func<Entry, T> read)
    {
        if (!_entries.TryGetValue(index, out var entry))
            return default;
        lock (entry)
            return read(entry);
    }

    private sealed class Entry
    {
        public DateTimeOffset? FailingSince;
        public DateTimeOffset? LoggedAt;
        public IndexingError? Last;
        public long Episodes;
        public long Attempts;
        public long Unlogged;
    }
}
