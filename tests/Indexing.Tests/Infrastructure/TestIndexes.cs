using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing.Tests.Infrastructure;

/// <summary>A document store and its indexes in a fresh temp folder, deleted on dispose; reopenable.</summary>
internal sealed class TestIndexes : IDisposable
{
    private readonly List<string> _log = [];

    private readonly int _commitEveryBatches;
    private readonly TimeSpan _commitInterval;
    private readonly TimeSpan? _refreshInterval;
    private readonly Action<string>? _beforeRefresh;
    private readonly TimeProvider _time;
    private readonly int? _maxAutoIndexes;

    /// <param name="directory">The folder; a fresh temp one when null.</param>
    /// <param name="batchSize">Documents per indexing batch.</param>
    /// <param name="neverCommitWhileOpen">Indexes commit on close only, never by their cadence.</param>
    /// <param name="refreshInterval">How often a busy indexer refreshes searchers; null for the default.</param>
    /// <param name="beforeRefresh">Runs before each refresh of an index's searchers, with the index's name; throwing fails it.</param>
    /// <param name="time">The clock of the store and the indexes; the system clock when null.</param>
    /// <param name="commitInterval">How long indexed batches may stay uncommitted; the default when null.</param>
    /// <param name="maxAutoIndexes">The most auto indexes the store keeps; the default when null.</param>
    public TestIndexes(string? directory = null, int batchSize = 1024, bool neverCommitWhileOpen = false, TimeSpan? refreshInterval = null,
        Action<string>? beforeRefresh = null, TimeProvider? time = null, TimeSpan? commitInterval = null, int? maxAutoIndexes = null)
    {
        _maxAutoIndexes = maxAutoIndexes;
        _time = time ?? TimeProvider.System;
        _refreshInterval = refreshInterval;
        _beforeRefresh = beforeRefresh;
        Directory = directory ?? Path.Combine(Path.GetTempPath(), "ravenlite-indexing-tests", Guid.NewGuid().ToString("N"));
        BatchSize = batchSize;
        var defaults = new IndexingOptions { DataDirectory = Directory };
        _commitEveryBatches = neverCommitWhileOpen ? int.MaxValue : defaults.CommitEveryBatches;
        _commitInterval = neverCommitWhileOpen ? TimeSpan.MaxValue : commitInterval ?? defaults.CommitInterval;
        Open();
    }

    public string Directory { get; }

    public int BatchSize { get; }

    public DocumentStore Documents { get; private set; } = null!;

    public IndexStore Indexes { get; private set; } = null!;

    public IReadOnlyList<string> LogLines
    {
        get
        {
            lock (_log)
                return [.. _log];
        }
    }

    public string IndexesDirectory => Path.Combine(Directory, "Indexes");

    public void Open()
    {
        Documents = DocumentStore.Open(new StorageOptions { DataDirectory = Directory, MapSize = 64L << 20, TimeProvider = _time });
        Indexes = IndexStore.Open(Documents, new IndexingOptions
        {
            DataDirectory = Directory,
            BatchSize = BatchSize,
            CommitEveryBatches = _commitEveryBatches,
            CommitInterval = _commitInterval,
            RefreshInterval = _refreshInterval ?? new IndexingOptions { DataDirectory = Directory }.RefreshInterval,
            BeforeRefresh = _beforeRefresh,
            TimeProvider = _time,
            MaxAutoIndexes = _maxAutoIndexes ?? new IndexingOptions { DataDirectory = Directory }.MaxAutoIndexes,
            Log = line =>
            {
                lock (_log)
                    _log.Add(line);
            },
        });
    }

    public void Close()
    {
        Indexes.Dispose();
        Documents.Dispose();
    }

    /// <summary>Closes as a killed process would: what the indexes held since their last commit is lost.</summary>
    public void Crash()
    {
        Indexes.Abandon();
        Documents.Dispose();
    }

    public void Reopen()
    {
        Close();
        Open();
    }

    public void Put(string key, string json, string? entityName = null) =>
        Documents.Put(key, DocumentContent.FromJson(json),
            entityName is null ? null : DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{entityName}}"}"""));

    /// <summary>Runs the query after waiting for the index to catch up.</summary>
    public QueryResult Query(string index, string query, int? pageSize = null, IReadOnlyList<string>? sortBy = null,
        int start = 0, string? continuation = null) =>
        Indexes.Query(index, new IndexQuery
        {
            Query = query,
            PageSize = pageSize,
            SortBy = sortBy,
            Start = start,
            Continuation = continuation,
            WaitForNonStaleResults = true,
            // A bound on a busy machine, not a speed claim: 100,000 documents index in a few seconds when it is idle.
            Timeout = TimeSpan.FromMinutes(2),
        });

    public static IReadOnlyList<string> Keys(QueryResult result) => [.. result.Results.Select(d => d.Key)];

    public void Dispose()
    {
        try
        {
            Close();
        }
        finally
        {
            if (System.IO.Directory.Exists(Directory))
                System.IO.Directory.Delete(Directory, recursive: true);
        }
    }
}
