using System.Runtime.ExceptionServices;
using Lucene.Net.Index;
using RavenLite.Indexing.Persistence;
using RavenLite.Storage;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// The etag the index's last Lucene commit reaches: after a crash indexing resumes from here, so tombstones
    /// up to here (and no further) may be purged.
    /// </summary>
    public long CommittedEtag
    {
        get
        {
            lock (WriteLock)
                return _committed.LastIndexedEtag;
        }
    }

    /// <summary>
    /// Commits the batches indexed since the last commit when there are <see cref="IndexingOptions.CommitEveryBatches"/>
    /// of them or the oldest is <see cref="IndexingOptions.CommitInterval"/> old; the indexer asks after every batch and
    /// whenever it is idle.
    /// </summary>
    /// <returns>Whether a commit happened.</returns>
    public bool CommitIfDue()
    {
        lock (WriteLock)
        {
            if (IsRetired || !CommitDue)
                return false;
            try
            {
                CommitPending();
            }
            catch (Exception ex) when (ex is not ObjectDisposedException || !IsRetired)
            {
                if (RolledBack(ex) is var mapped && mapped != ex)
                    throw mapped;
                throw;
            }
            return true;
        }
    }

    private bool CommitDue => _uncommittedBatches > 0
        && (_uncommittedBatches >= _options.CommitEveryBatches || _options.TimeProvider.GetElapsedTime(_lastCommitTimestamp) >= Paced(_options.CommitInterval));

    /// <summary><paramref name="interval"/>, spaced out while the index is catching up (<see cref="IndexingOptions.CatchUpIntervalFactor"/>).</summary>
    private TimeSpan Paced(TimeSpan interval) => Times(interval, CatchUpFactor);

    private int CatchUpFactor => _catchingUp ? _options.CatchUpIntervalFactor : 1;

    /// <summary><paramref name="interval"/> times <paramref name="factor"/>, left as it is when it would not grow or would overflow.</summary>
    private static TimeSpan Times(TimeSpan interval, int factor) =>
        factor <= 1 || interval <= TimeSpan.Zero || interval >= TimeSpan.MaxValue / factor ? interval : interval * factor;

    /// <summary>
    /// Commits whatever is indexed and not yet committed, due or not: a backup copies the last commit, and near-real-time
    /// batches since it would otherwise be indexed again after a restore.
    /// </summary>
    public void CommitNow()
    {
        lock (WriteLock)
        {
            if (!IsRetired)
                CommitPending();
        }
    }

    /// <summary>
    /// Commits the indexed batches with the progress they reach, running the merges due first unless
    /// <paramref name="closing"/>. Called under <see cref="WriteLock"/>.
    /// </summary>
    private void CommitPending(bool closing = false)
    {
        if (_uncommittedBatches == 0)
            return;
        if (_reducer is not null)
        {
            // Waits for results a refresh is writing, so the commit holds them; if writing them failed, the commit would
            // hold entries without their results, so the index is rolled back instead (by the caller).
            lock (_refreshLock)
            {
                if (Interlocked.Exchange(ref _refreshFailure, null) is { } failure)
                    ExceptionDispatchInfo.Throw(failure);
                _reducer.WriteResults(Lucene);
            }
        }
        var state = _written;
        Lucene.Commit(new CommitData(DefinitionJson, Generation, state), merge: !closing);
        _committed = state;
        _uncommittedBatches = 0;
        _lastCommitTimestamp = _options.TimeProvider.GetTimestamp();
    }

    /// <summary>
    /// Rolls the index back to its last commit after <paramref name="failure"/>, and returns what to throw: damage Lucene
    /// finds in the index's own files is not going to pass on a retry, so it becomes a <see cref="StorageCorruptedException"/>
    /// (the indexer rebuilds the index).
    /// </summary>
    private Exception RolledBack(Exception failure)
    {
        RollBack();
        return failure is CorruptIndexException or IndexFormatTooOldException or IndexFormatTooNewException
            ? new StorageCorruptedException($"Lucene reports the index's files damaged: {failure.Message}", failure)
            : failure;
    }

    /// <summary>For tests: stops the index as a killed process would, throwing away everything since its last commit.</summary>
    internal void Abandon()
    {
        lock (WriteLock)
        {
            IsRetired = true;
            lock (_refreshLock)
                TryRollback(Lucene);
            Dispose();
        }
    }
}
