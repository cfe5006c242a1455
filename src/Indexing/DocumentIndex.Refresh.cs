using System.Runtime.ExceptionServices;
using RavenLite.Indexing.MapReduce;
using RavenLite.Indexing.Persistence;
using RavenLite.Storage;

namespace RavenLite.Indexing;

internal sealed partial class DocumentIndex
{
    /// <summary>
    /// Held while the Lucene index refreshes its searchers (on the refresher's thread, without <see cref="WriteLock"/>, so
    /// the indexer goes on adding documents), and by whatever closes, rolls back or clears that Lucene index, which
    /// must not happen under a refresh. Taken after <see cref="WriteLock"/>, never before it.
    /// </summary>
    private readonly object _refreshLock = new();
    private bool _refreshQueued;

    /// <summary>
    /// How many refreshes are reopening the searchers beside the indexer (counted under <see cref="WriteLock"/>): a
    /// batch that deletes the versions it replaced waits for them to end (<see cref="Apply"/>), so no reader sees those deletes without the
    /// documents that replace them. A batch that only adds goes on beside it, as the refresh may show part of it.
    /// </summary>
    private int _refreshesRunning;
    private Exception? _refreshFailure;

    /// <summary>
    /// Whether queries should be shown what the indexer wrote, now: when <paramref name="now"/> or when the last
    /// refresh is <see cref="IndexingOptions.RefreshInterval"/> old, unless nothing is new or a refresh is queued
    /// already. A true answer queues one: the caller hands the index to the refresher, which calls <see cref="Refresh"/>.
    /// While the indexer is behind it is asked after every batch, so refreshes come at that interval rather than after
    /// every batch (each writes a segment, to be merged later), and while it is catching up at a longer one
    /// (<see cref="IndexingOptions.CatchUpIntervalFactor"/>); a map/reduce index at least every
    /// <see cref="Reducer.RefreshIntervals"/> intervals (each refresh rewrites every group reduced since the last).
    /// <paramref name="quiet"/> (the indexer found nothing new for a moment) counts as <paramref name="now"/> for a
    /// built-in index; a map/reduce index still waits for its interval then, and refreshes at once only when asked to.
    /// <paramref name="waited"/> (a query waits, and the indexer is in the last batches before its etag:
    /// <see cref="Indexer.BackgroundIndexer.InFinalStretch"/>) drops the catch-up spacing (not a map/reduce index's own): the
    /// refresh that serves the query once the indexer reaches it then flushes only what came since the last, the
    /// refreshes before it having run beside the indexing; spaced out, that last refresh flushed up to ten intervals of
    /// indexing, alone.
    /// </summary>
    /// <exception cref="StorageCorruptedException">The last refresh found the index's files damaged.</exception>
    /// <remarks>
    /// A refresh that failed is thrown here, on the indexer's thread, after the index was rolled back to its last
    /// commit as a failed batch would be: the indexer then records it or rebuilds the index.
    /// </remarks>
    public bool RefreshDue(bool now, bool quiet = false, bool waited = false)
    {
        lock (WriteLock)
        {
            if (Interlocked.Exchange(ref _refreshFailure, null) is { } failure)
            {
                if (!IsRetired)
                {
                    if (RolledBack(failure) is var mapped && mapped != failure)
                        throw mapped;
                    ExceptionDispatchInfo.Throw(failure);
                }
            }
            // Quiet (no write for a moment) is reason enough for a built-in index, not for a map/reduce one: a bulk insert
            // is quiet between its transactions, and each refresh rewrites every group reduced since the last.
            now |= quiet && _reducer is null;
            if (IsRetired || !_unpublished || _refreshQueued
                || (!now && _options.TimeProvider.GetElapsedTime(_lastRefreshTimestamp) < (waited ? WaitedRefreshInterval : RefreshInterval)))
                return false;
            _refreshQueued = true;
            return true;
        }
    }

    /// <summary>
    /// How long after the last refresh the next is due while a query waits for the indexer: not spaced out for catching
    /// up, except for a map/reduce index (each of its refreshes rewrites every group reduced since the last).
    /// </summary>
    private TimeSpan WaitedRefreshInterval => _reducer is null ? _options.RefreshInterval : RefreshInterval;

    /// <summary>How long after the last refresh the next is due while the indexer is behind.</summary>
    private TimeSpan RefreshInterval =>
        Times(_options.RefreshInterval, Math.Max(CatchUpFactor, _reducer is null ? 1 : Reducer.RefreshIntervals));

    /// <summary>
    /// Refreshes the searchers from the writer. Queries then see at least every batch indexed before the refresh
    /// began (<see cref="State"/> says up to which etag), and possibly some documents of a batch the indexer was
    /// adding meanwhile, already written to the database (never a batch's deletes of replaced versions without its
    /// documents: such a batch waits for the refresh). A failure is kept for <see cref="RefreshDue"/>.
    /// </summary>
    /// <returns>Whether queries now see more than before.</returns>
    /// <remarks>
    /// A map/reduce index's results reduced up to the refresh are taken under the write lock and written after it is
    /// let go, while the indexer goes on with the next batch; the refresh lock, taken before the write lock is let go,
    /// is held until they are written, so a commit (which takes it too) holds them.
    /// </remarks>
    public bool Refresh()
    {
        IndexState target;
        LuceneIndex lucene;
        PendingResults? results = null;
        long count;
        var refreshing = false;
        try
        {
            lock (WriteLock)
            {
                _refreshQueued = false;
                if (IsRetired || !_unpublished)
                    return false;
                (target, lucene) = (_written, Lucene);
                Monitor.Enter(_refreshLock, ref refreshing);
                // The results of every batch up to the target, written once per refresh however many batches came
                // since it was queued (the reducer's kept states are the truth until then).
                if (_reducer is { HasUnwrittenResults: true })
                    results = _reducer.TakeUnwrittenResults();
                _unpublished = false;
                _lastRefreshTimestamp = _options.TimeProvider.GetTimestamp();
                _refreshesRunning++;
            }
            try
            {
                _options.BeforeRefresh?.Invoke(Name);
                if (results is not null)
                    _reducer!.WriteResults(lucene, results);
                lucene.Refresh();
                count = lucene.DocumentCount();
            }
#pragma warning disable CA1031 // Kept for the indexer's thread, which rolls the index back and records or rebuilds it.
            catch (Exception ex)
            {
                // Kept before the refresh lock is let go (a commit waiting for it must not commit results missing), and
                // without taking the write lock under it: whoever holds the write lock may be waiting for the refresh
                // lock (a rollback after the same full disk failed a batch, a reset, a retire). An index reset or retired
                // before this refresh took the refresh lock is not this failure's.
                if (!IsRetired && lucene == Lucene)
                    Volatile.Write(ref _refreshFailure, ex);
                count = -1;
            }
#pragma warning restore CA1031
        }
        finally
        {
            if (refreshing)
                Monitor.Exit(_refreshLock);
        }
        lock (WriteLock)
        {
            if (--_refreshesRunning == 0)
                Monitor.PulseAll(WriteLock);
            if (count < 0)
            {
                // Shown again by the next refresh, once the indexer has rolled the index back (or it was retired meanwhile).
                if (!IsRetired && lucene == Lucene)
                    _unpublished = true;
                return false;
            }
            if (IsRetired || lucene != Lucene || target.LastIndexedEtag < State.LastIndexedEtag)
                return false;
            Volatile.Write(ref _state, target with { DocumentCount = count });
            return true;
        }
    }
}
