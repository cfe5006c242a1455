namespace RavenLite.Indexing;

/// <summary>How a database's indexes are kept and queried.</summary>
internal sealed class IndexingOptions
{
    /// <summary>The database folder; indexes live in its <c>Indexes</c> sub-folder.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>The page size of a query that names none. Default 128.</summary>
    public int DefaultPageSize { get; init; } = 128;

    /// <summary>The largest page a query gets; a larger request is clamped, and the result says so. Default 1024.</summary>
    public int MaxPageSize { get; init; } = 1024;

    /// <summary>How many documents (and as many tombstones) the indexer reads per batch. Default 4096.</summary>
    public int BatchSize { get; init; } = 4096;

    /// <summary>
    /// After how many indexing batches an index commits to disk (a Lucene commit holding the last indexed etag).
    /// Queries see every batch at once (near-real-time); a commit only bounds what is indexed again after a crash, and
    /// costs fsyncs and the merges it triggers. Default 256: batches can be as small as the writes that wake the
    /// indexer (a bulk insert's 1,000-document transactions), so a small count would commit every few thousand
    /// documents, while <see cref="CommitInterval"/> bounds the replay after a crash anyway.
    /// </summary>
    public int CommitEveryBatches { get; init; } = 256;

    /// <summary>
    /// How long an index may hold indexed batches it has not committed; the commit also happens on close. Default 1 s
    /// (times <see cref="CatchUpIntervalFactor"/> while the index is catching up).
    /// </summary>
    public TimeSpan CommitInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// While the indexer keeps pace with writes, how often queries are shown what it has indexed (times
    /// <see cref="CatchUpIntervalFactor"/> while it is catching up; a near-real-time refresh, which
    /// writes the indexed batches out as a new segment, on a thread of its own so the indexer goes on meanwhile). The
    /// indexer also refreshes as soon as it reaches what a waiting query waits for, so waited queries do not wait for
    /// this, and once it has found nothing new to index for a few milliseconds. Default 25 ms: refreshes run beside the
    /// indexer, so frequent small ones overlap with indexing, where a long interval leaves one large refresh at the end
    /// of a bulk load for its waited query to wait on; much shorter intervals cost more in segments (and their merges)
    /// than they save.
    /// </summary>
    public TimeSpan RefreshInterval { get; init; } = TimeSpan.FromMilliseconds(25);

    /// <summary>
    /// While an index is catching up (the batch it was given did not reach the database's last etag: an index built or
    /// rebuilt over existing documents, or a backlog), its refresh and commit intervals are this many times
    /// <see cref="RefreshInterval"/> and <see cref="CommitInterval"/>. Default 10 (250 ms and 10 s). Each refresh
    /// flushes a segment and each commit merges them, and every merge writes its documents' terms again: at 25 ms a
    /// catch-up over 100,000 documents cut ~250 segments and spent more on writing term dictionaries than on indexing.
    /// Nobody waits on those refreshes (a waited query is served when the indexer reaches its etag), and a commit only
    /// bounds what is indexed again after a crash.
    /// </summary>
    public int CatchUpIntervalFactor { get; init; } = 10;

    /// <summary>
    /// Whether the indexer stays stopped while the indexes are open (a bulk load): queries see the indexes as they were
    /// committed, and a query waiting for non-stale results fails at once. The indexes catch up when opened without it.
    /// </summary>
    public bool DeferIndexing { get; init; }

    /// <summary>
    /// The most auto indexes the database keeps (default 256). Each one is built over its whole collection, and any
    /// caller that can query can ask for one on any collection name, so without a bound a stream of made-up names
    /// would fill the disk and keep the indexer busy. Past it, a query that needs a new one is refused with a
    /// <see cref="LimitExceededException"/>; deleting unused ones makes room. Widening replaces a collection's index,
    /// so this bounds collections, not queries.
    /// </summary>
    public int MaxAutoIndexes { get; init; } = 256;

    /// <summary>How long a query waiting for non-stale results waits when it names no timeout. Default 15 s.</summary>
    public TimeSpan DefaultWaitTimeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Where indexing writes its log lines (an index rebuilt, the indexer failing); null writes them to
    /// <see cref="System.Diagnostics.Trace"/>.
    /// </summary>
    public Action<string>? Log { get; init; }

    /// <summary>
    /// Where indexing's clock comes from: commit and refresh intervals, retry and log intervals of a failing index,
    /// the timestamps of indexing errors and the deadlines of waits. The system clock by default.
    /// </summary>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;

    /// <summary>For tests: runs just before an index reset commits, with the index's name; throwing fails the reset there.</summary>
    internal Action<string>? BeforeResetCommit { get; init; }

    /// <summary>
    /// For tests: runs on the refresher's thread just before an index writes the map/reduce results it took (without the
    /// write lock) and refreshes its searchers; throwing fails the refresh.
    /// </summary>
    internal Action<string>? BeforeRefresh { get; init; }

    internal string IndexesDirectory => Path.Combine(Path.GetFullPath(DataDirectory), "Indexes");

    /// <summary>Throws on the first setting out of range, naming it.</summary>
    /// <exception cref="ArgumentException">A setting is missing or out of range.</exception>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(DataDirectory))
            throw new ArgumentException("DataDirectory must name a folder.", nameof(DataDirectory));
        if (MaxPageSize < 1)
            throw new ArgumentOutOfRangeException(nameof(MaxPageSize), MaxPageSize, "MaxPageSize must be at least 1.");
        if (DefaultPageSize < 0 || DefaultPageSize > MaxPageSize)
            throw new ArgumentOutOfRangeException(nameof(DefaultPageSize), DefaultPageSize,
                $"DefaultPageSize must be from 0 to MaxPageSize ({MaxPageSize}).");
        if (BatchSize < 1)
            throw new ArgumentOutOfRangeException(nameof(BatchSize), BatchSize, "BatchSize must be at least 1.");
        if (MaxAutoIndexes < 0)
            throw new ArgumentOutOfRangeException(nameof(MaxAutoIndexes), MaxAutoIndexes, "MaxAutoIndexes must be at least 0.");
        if (CommitEveryBatches < 1)
            throw new ArgumentOutOfRangeException(nameof(CommitEveryBatches), CommitEveryBatches, "CommitEveryBatches must be at least 1.");
        if (CommitInterval < TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(CommitInterval), CommitInterval, "CommitInterval cannot be negative.");
        if (RefreshInterval < TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(RefreshInterval), RefreshInterval, "RefreshInterval cannot be negative.");
        if (DefaultWaitTimeout <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(DefaultWaitTimeout), DefaultWaitTimeout, "DefaultWaitTimeout must be positive.");
    }
}
