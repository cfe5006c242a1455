using RavenLite.Indexing;

namespace RavenLite.Database;

public sealed partial class DocumentDatabaseOptions
{
    /// <summary>Indexing's own defaults, which these options start from: each default is set in one place.</summary>
    private static readonly IndexingOptions s_indexingDefaults = new() { DataDirectory = "" };

    /// <summary>The page size of a query that names none. Default 128; at most <see cref="MaxPageSize"/>.</summary>
    public int DefaultPageSize { get; set; } = s_indexingDefaults.DefaultPageSize;

    /// <summary>
    /// The largest page a query returns. Default 1024. A query asking for more gets this many, and its result says
    /// the page size was clamped.
    /// </summary>
    public int MaxPageSize { get; set; } = s_indexingDefaults.MaxPageSize;

    /// <summary>How many documents the background indexer reads per batch (one storage read transaction). Default 4096.</summary>
    public int IndexingBatchSize { get; set; } = s_indexingDefaults.BatchSize;

    /// <summary>
    /// After how many indexing batches an index commits to disk (or after <see cref="IndexCommitInterval"/>, whichever
    /// comes first). Commits only bound what is indexed again after a crash. Default 256.
    /// </summary>
    public int IndexCommitEveryBatches { get; set; } = s_indexingDefaults.CommitEveryBatches;

    /// <summary>
    /// How long an index may hold indexed batches it has not committed (it also commits on close). Default 1 s; ten times
    /// that while the index is catching up (the database has changes past the batch it indexed), when frequent commits
    /// would only multiply segments to merge.
    /// </summary>
    public TimeSpan IndexCommitInterval { get; set; } = s_indexingDefaults.CommitInterval;

    /// <summary>
    /// While the indexer is behind, how often queries are shown what it has indexed so far. It also shows them once
    /// it has caught up, and when it reaches what a waiting query waits for. Default 25 ms; ten times that while an
    /// index is catching up (the database has changes past the batch it indexed).
    /// </summary>
    public TimeSpan IndexRefreshInterval { get; set; } = s_indexingDefaults.RefreshInterval;

    /// <summary>How long a query waiting for non-stale results waits when it names no timeout. Default 15 s.</summary>
    public TimeSpan DefaultQueryWaitTimeout { get; set; } = s_indexingDefaults.DefaultWaitTimeout;

    /// <summary>
    /// Opens the database without its indexer, for a bulk load: documents are written and read as usual, but no index
    /// follows them (queries report stale results, and a query waiting for non-stale results fails at once saying
    /// why) until the database is next opened without this, when the indexes catch up in large batches. False by
    /// default. <c>ravenlite import</c> into a folder uses it: indexing beside the load would take half of its time
    /// and be cut off at the close anyway.
    /// </summary>
    public bool DeferIndexing { get; set; }

    /// <summary>
    /// Where the database writes its log lines (an index rebuilt from the documents, the indexer failing and
    /// retrying). Null: <see cref="System.Diagnostics.Trace"/>.
    /// </summary>
    public Action<string>? Log { get; set; }

    internal IndexingOptions ToIndexingOptions() => new()
    {
        DataDirectory = DataDirectory,
        DefaultPageSize = DefaultPageSize,
        MaxPageSize = MaxPageSize,
        BatchSize = IndexingBatchSize,
        CommitEveryBatches = IndexCommitEveryBatches,
        CommitInterval = IndexCommitInterval,
        RefreshInterval = IndexRefreshInterval,
        DefaultWaitTimeout = DefaultQueryWaitTimeout,
        DeferIndexing = DeferIndexing,
        Log = Log,
        TimeProvider = TimeProvider,
    };
}
