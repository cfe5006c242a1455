using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Persistence;

namespace RavenLite.Indexing;

/// <summary>
/// One index of a database: its definition, its Lucene index (<see cref="LuceneIndex"/>), its progress. The
/// background indexer is its one writer; queries acquire searchers from its <c>SearcherManager</c>, refreshed from
/// the writer (near-real-time) on the refresher's thread (<see cref="Refresh"/>), while Lucene commits
/// follow at a slower cadence.
/// </summary>
internal sealed partial class DocumentIndex : IDisposable
{
    private readonly IndexingOptions _options;
    private readonly DocumentMapper _mapper;
    private readonly AddedKeys? _addedKeys;
    private readonly Reducer? _reducer;
    private LuceneIndex _lucene;
    private IndexState _state;
    private IndexState _written;
    private IndexState _committed;
    private int _uncommittedBatches;
    private bool _unpublished;
    /// <summary>Whether the last batch left documents after it (<see cref="IndexingOptions.CatchUpIntervalFactor"/>).</summary>
    private bool _catchingUp;
    private long _lastCommitTimestamp;
    private long _lastRefreshTimestamp;
    private long _indexedSinceOpen;
    private bool _handedOver;
    private int _disposed;

    private DocumentIndex(CompiledIndex compiled, LuceneIndex lucene, string folder, CommitData committed, IndexingOptions options)
    {
        Compiled = compiled;
        _mapper = new DocumentMapper(compiled);
        _reducer = compiled.Definition.Reduce is null ? null : new Reducer(compiled, _refreshLock);
        _lucene = lucene;
        Folder = folder;
        Generation = committed.Generation;
        _options = options;
        _state = committed.State with { DocumentCount = lucene.DocumentCount() };
        _addedKeys = _reducer is not null && _state.DocumentCount == 0 ? new AddedKeys() : null;
        _written = _state;
        _committed = _state;
        _lastCommitTimestamp = _lastRefreshTimestamp = options.TimeProvider.GetTimestamp();
    }

    public IndexDefinition Definition => Compiled.Definition;

    public string Name => Definition.Name;

    public CompiledIndex Compiled { get; }

    /// <summary>
    /// What queries parse and sort against: the definition's fields, or for a map/reduce index its results' fields
    /// (group keys and aggregates).
    /// </summary>
    public CompiledIndex QueryFields => _reducer?.Results ?? Compiled;

    /// <summary>Whether the index holds one result per group (a map/reduce index) rather than one entry per document.</summary>
    public bool IsMapReduce => _reducer is not null;

    /// <summary>The Lucene index; replaced only when a failed write had to be rolled back.</summary>
    public LuceneIndex Lucene => Volatile.Read(ref _lucene);

    public string Folder { get; }

    /// <summary>A random id of this build of the index: continuation tokens from an earlier build are refused.</summary>
    public Guid Generation { get; }

    public bool IsBuiltIn => IndexName.IsReserved(Name);

    /// <summary>Held while a batch is written, and while the index is retired or reset, so they never overlap.</summary>
    public object WriteLock { get; } = new();

    /// <summary>Set (under <see cref="WriteLock"/>) once the index was deleted or replaced: nothing more is written to it.</summary>
    public bool IsRetired { get; private set; }

    /// <summary>What queries see: the progress of the searcher they acquire (or of an older one).</summary>
    public IndexState State => Volatile.Read(ref _state);

    /// <summary>The etag up to which queries see every document and deletion.</summary>
    public long LastIndexedEtag => State.LastIndexedEtag;

    /// <summary>
    /// The etag up to which the writer holds every document and deletion: where the indexer goes on from. Ahead of
    /// <see cref="LastIndexedEtag"/> until the next <see cref="Refresh"/>.
    /// </summary>
    public long WrittenEtag => Volatile.Read(ref _written).LastIndexedEtag;

    public long IndexedSinceOpen => Interlocked.Read(ref _indexedSinceOpen);

    /// <summary>
    /// How far storage had purged tombstones and replacement records when this index began from nothing (set by the
    /// indexer before its first batch): it reads only what is current from then on, so it never needs what was purged
    /// up to there, and a purge up to there is no reason to rebuild it. Kept in memory only: an index that is still
    /// behind a purge when it is opened again is rebuilt once.
    /// </summary>
    public long PurgedBeforeStart { get; set; }

    private string DefinitionJson => Definition.ToJson();

    /// <summary>
    /// Empties the index for <paramref name="definition"/> (this one's, or a new one) in one Lucene commit, and
    /// returns the index that replaces this one over the same folder. If anything fails, the commit never happened:
    /// this index is as it was, still serving, and the exception is thrown.
    /// </summary>
    public DocumentIndex Reset(IndexDefinition definition)
    {
        lock (WriteLock)
        {
            ObjectDisposedException.ThrowIf(IsRetired, this);
            var committed = new CommitData(definition.ToJson(), Guid.NewGuid(), IndexState.Empty);
            try
            {
                _options.BeforeResetCommit?.Invoke(Name);
                lock (_refreshLock)
                    Lucene.Clear(committed);
                _reducer?.Dispose();
            }
            catch
            {
                RollBack();
                throw;
            }
            var replacement = new DocumentIndex(new CompiledIndex(definition), Lucene, Folder, committed, _options);
            IsRetired = true;
            _handedOver = true;
            return replacement;
        }
    }

    /// <summary>
    /// Throws away what was written since the last commit (batches searchers already saw included): Lucene's rollback
    /// closes the writer, so the index is opened again from that commit, and its progress goes back to the commit's.
    /// Called under <see cref="WriteLock"/>.
    /// </summary>
    private void RollBack()
    {
        var failed = Lucene;
        _reducer?.Dispose();
        lock (_refreshLock)
        {
            TryRollback(failed);
            TryDispose(failed);
        }
        var reopened = LuceneIndex.Open(Folder, out _);
        Volatile.Write(ref _lucene, reopened);
        Volatile.Write(ref _written, _committed);
        Volatile.Write(ref _state, _committed with { DocumentCount = reopened.DocumentCount() });
        _uncommittedBatches = 0;
        _unpublished = false;
    }

    /// <summary>
    /// Stops all writing and closes the Lucene index, committing what it indexed since its last commit unless
    /// <paramref name="deleteFolder"/>, which removes the folder instead. The merges due are left to the next commit
    /// after the index is opened again: closing after a bulk load would otherwise rewrite most of what it indexed.
    /// </summary>
    public void Retire(bool deleteFolder)
    {
        lock (WriteLock)
        {
            try
            {
                if (!deleteFolder && !IsRetired)
                    CommitPending(closing: true);
            }
            finally
            {
                IsRetired = true;
                Dispose();
                if (deleteFolder && !_handedOver && Directory.Exists(Folder))
                    Directory.Delete(Folder, recursive: true);
            }
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _reducer?.Dispose();
        if (_handedOver)
            return;
        lock (_refreshLock)
            Lucene.Dispose();
    }

    private static void TryDispose(LuceneIndex? lucene)
    {
#pragma warning disable CA1031 // Best effort on an index being thrown away.
        try
        {
            lucene?.Dispose();
        }
        catch (Exception)
        {
        }
#pragma warning restore CA1031
    }

    private static void TryRollback(LuceneIndex lucene)
    {
#pragma warning disable CA1031 // The writer may already be closed by the failure; the index is reopened either way.
        try
        {
            lucene.Rollback();
        }
        catch (Exception)
        {
        }
#pragma warning restore CA1031
    }
}
