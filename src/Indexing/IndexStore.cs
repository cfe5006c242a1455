using System.Diagnostics;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Persistence;
using RavenLite.Storage.Documents;

namespace RavenLite.Indexing;

/// <summary>
/// The indexes of one database: their definitions, their Lucene indexes (one folder per index under
/// <c>&lt;data&gt;/Indexes/</c>), the background indexer that keeps them up to date, and queries. Thread-safe.
/// </summary>
internal sealed partial class IndexStore : IDisposable
{
    private readonly IIndexedDocuments _documents;
    private readonly IndexingOptions _options;
    private readonly Action<string> _log;
    private readonly DefinitionRegistry _registry;
    private readonly object _definitionsLock = new();
    private readonly BackgroundIndexer _indexer;
    private Dictionary<string, DocumentIndex> _indexes = new(StringComparer.OrdinalIgnoreCase);
    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, IndexingError> _unavailable = new(StringComparer.OrdinalIgnoreCase);
    private readonly System.Diagnostics.Metrics.Histogram<double> _queryDuration;
    private int _disposed;

    private IndexStore(IIndexedDocuments documents, IndexingOptions options)
    {
        _queryDuration = QueryTelemetry.CreateDuration(documents.Meter);
        _documents = documents;
        _options = options;
        _log = options.Log ?? (message => Trace.TraceInformation("RavenLite indexing: {0}", message));
        _registry = new DefinitionRegistry(documents, _log);
        _indexer = new BackgroundIndexer(documents, () => [.. Volatile.Read(ref _indexes).Values], options, _log, RebuildDamaged);
    }

    /// <summary>
    /// Opens the indexes of <paramref name="documents"/>: the built-in ones and every stored definition. An index
    /// whose folder is missing or unreadable is rebuilt from the documents (with a log line); then the
    /// background indexer starts.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public static IndexStore Open(IIndexedDocuments documents, IndexingOptions options)
    {
        ArgumentNullException.ThrowIfNull(documents);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var store = new IndexStore(documents, options);
        try
        {
            store.OpenIndexes();
            if (!options.DeferIndexing)
                store._indexer.Start();
            documents.CommittedElsewhere += store.OnCommittedElsewhere;
            return store;
        }
        catch
        {
            store.Dispose();
            throw;
        }
    }

    private DocumentIndex GetIndex(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        if (Volatile.Read(ref _indexes).TryGetValue(name, out var index))
            return index;
        lock (_definitionsLock)
        {
            // An index being redefined or reset is missing for a moment: the change holds this lock until it is back.
            return Volatile.Read(ref _indexes).TryGetValue(name, out index) ? index : throw new IndexNotFoundException(name);
        }
    }

    /// <summary>For tests: holds the indexer back (after its current batch) until the result is disposed.</summary>
    internal IDisposable PauseIndexing()
    {
        _indexer.Pause();
        return new IndexingPause(_indexer);
    }

    /// <summary>
    /// Completes when the indexer next shows queries more (or stops). Read it before checking progress, so progress made
    /// in between is not missed.
    /// </summary>
    public Task NextIndexingProgress => _indexer.NextProgress;

    /// <summary>For tests: how many queries are waiting for the indexes to catch up.</summary>
    internal int WaitingQueries => _indexer.Waiters;

    /// <summary>For tests: how many segments the searchers of the index see.</summary>
    internal int SegmentCount(string indexName)
    {
        var lucene = GetIndex(indexName).Lucene;
        var searcher = lucene.Searchers.Acquire();
        try
        {
            return searcher.IndexReader.Leaves.Count;
        }
        finally
        {
            lucene.Searchers.Release(searcher);
        }
    }

    /// <summary>For tests: merges the index down to one segment (as Lucene's own merges would, eventually) and refreshes its searchers.</summary>
    /// <returns>How many segments the index had before.</returns>
    internal int ForceMerge(string indexName)
    {
        var index = GetIndex(indexName);
        lock (index.WriteLock)
        {
            var lucene = index.Lucene;
            var before = SegmentCount(indexName);
            lucene.Writer.ForceMerge(1);
            lucene.Writer.Commit();
            lucene.Searchers.MaybeRefreshBlocking();
            return before;
        }
    }

    /// <summary>
    /// For tests: closes the indexes as a crash would, stopping the indexer and throwing away everything indexed since
    /// each index's last commit.
    /// </summary>
    internal void Abandon()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _indexer.Dispose();
        lock (_definitionsLock)
        {
            foreach (var index in Volatile.Read(ref _indexes).Values)
                index.Abandon();
        }
    }

    private sealed class IndexingPause(BackgroundIndexer indexer) : IDisposable
    {
        public void Dispose() => indexer.Resume();
    }

    /// <summary>Stops the indexer (it finishes its batch) and closes every index. Safe to call more than once.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _documents.CommittedElsewhere -= OnCommittedElsewhere;
        var failures = new CloseFailures();
        failures.Try(_indexer.Dispose);
        lock (_definitionsLock)
        {
            foreach (var index in Volatile.Read(ref _indexes).Values)
                failures.Try(() => index.Retire(deleteFolder: false));
        }
        failures.ThrowIfAny("Closing the indexes failed.");
    }
}
