using RavenLite.Storage;

namespace RavenLite.Indexing.Indexer;

internal sealed partial class BackgroundIndexer
{
    /// <summary>How long the indexer must find nothing new before it shows queries what it holds without being asked.</summary>
    public static readonly TimeSpan QuietPeriod = TimeSpan.FromMilliseconds(5);

    /// <summary>When the indexer last found nothing to index after indexing something (a timestamp); 0 while it indexes.</summary>
    private long _caughtUpSince;

    /// <summary>How long a server over a shared database keeps tombstones its indexes have passed, for the other servers.</summary>
    public static readonly TimeSpan SharedPurgeDelay = TimeSpan.FromMinutes(10);

    /// <summary>Over a shared database: how far the indexes had committed when this was taken, and when (a timestamp).</summary>
    private (long Etag, long At)? _sharedPurgeCandidate;

    /// <summary>
    /// Gives one batch to every group of indexes at the same progress that is behind the database, has the refresher
    /// show queries what is indexed when that is due (<see cref="DocumentIndex.RefreshDue"/>), commits the indexes whose commit is due (also
    /// when idle, so the last batches of a burst reach disk within the commit interval), then purges tombstones every
    /// index has committed past.
    /// </summary>
    /// <returns>Whether any index moved.</returns>
    private bool RunOnce()
    {
        var lastEtag = _documents.LastEtag;
        var indexes = _indexes();
        var worked = false;
        var waited = Volatile.Read(ref _waiters) > 0;
        long? purgedTo = null;
        foreach (var group in indexes.Where(i => i.WrittenEtag < lastEtag && Failures.IsRetryDue(i.Name)).GroupBy(i => i.WrittenEtag))
        {
            if (_stopping)
                return worked;
            // Deletes and replaced versions are learnt from tombstones and replacement records; one purged after this
            // index's progress (by another server over a shared database) is a change it can never see, so it starts
            // again from the documents. An index that began from nothing after a purge needs nothing purged before it.
            purgedTo ??= _documents.ReadTombstonesPurgedTo();
            if (group.Key == 0)
            {
                foreach (var index in group)
                    index.PurgedBeforeStart = purgedTo.Value;
            }
            else if (group.Key < purgedTo && group.Where(index => index.PurgedBeforeStart < purgedTo).ToList() is { Count: > 0 } behind)
            {
                foreach (var index in behind)
                {
                    _log($"Index '{index.Name}': deletes or replaced versions after etag {group.Key} had their records purged (by another server) before it saw them; rebuilding it from the documents.");
                    _rebuild(index);
                }
                worked = true;
                continue;
            }
            using var batch = IndexingBatch.Read(_documents, group.Key, lastEtag, _options.BatchSize, group.Any(index => index.Compiled.ReadsJson));
            if (batch.FirstPurgeableEtag is { } purgeable && (_firstUnpurged is null || purgeable < _firstUnpurged))
                _firstUnpurged = purgeable;
            var now = _options.TimeProvider.GetUtcNow();
            // A waiting query is served as soon as the indexes reach the etag the database had when this round began.
            var reachedWaiters = waited && batch.UpToEtag >= lastEtag;
            var catchingUp = batch.UpToEtag < lastEtag;
            var finalStretch = waited && InFinalStretch(batch.UpToEtag, lastEtag, _options.BatchSize);
            foreach (var index in group)
            {
                if (ApplyBatch(index, batch, now, catchingUp))
                {
                    worked = true;
                    RefreshIfDue(index, reachedWaiters, waited: finalStretch);
                }
            }
        }
        if (worked)
            _caughtUpSince = 0;
        else if (_caughtUpSince == 0)
            _caughtUpSince = _options.TimeProvider.GetTimestamp();
        foreach (var index in indexes)
        {
            if (_stopping)
                return worked;
            if (!Failures.IsRetryDue(index.Name))
                continue;
            // Nothing left to index: whatever the writer holds is shown at once to a waiting query, and otherwise
            // once no write came for QuietPeriod: during a bulk insert the indexer catches up with every transaction,
            // and a refresh each time would cut the index into a segment per transaction.
            if (!worked)
                RefreshIfDue(index, now: waited, quiet: _options.TimeProvider.GetElapsedTime(_caughtUpSince) >= QuietPeriod);
            Guarded(index, index.CommitIfDue);
        }
        PurgeTombstones(indexes);
        return worked;
    }

    /// <summary>
    /// Whether an index at <paramref name="upToEtag"/> is in the last <see cref="FinalStretchBatches"/> batches before
    /// <paramref name="lastEtag"/>. While a query waits, such an index refreshes at its refresh interval rather than the
    /// catch-up one (<see cref="DocumentIndex.RefreshDue"/>): the segments before the query's are flushed beside the
    /// indexing of the last batches, instead of all at once by the refresh the query waits for.
    /// </summary>
    internal static bool InFinalStretch(long upToEtag, long lastEtag, int batchSize) =>
        lastEtag - upToEtag <= (long)batchSize * FinalStretchBatches;

    /// <summary>
    /// How many batches before a waited etag an index stops spacing out its refreshes: with eight (32,768 documents by
    /// default) little refresh work is left once the indexer reaches the etag, while a long catch-up (an index built over
    /// a large collection for a waiting query) still cuts most of its segments at the catch-up interval.
    /// </summary>
    internal const int FinalStretchBatches = 8;

    private void RefreshIfDue(DocumentIndex index, bool now, bool quiet = false, bool waited = false)
    {
        if (Guarded(index, () => index.RefreshDue(now, quiet, waited)))
            _refresher.Request(index);
    }

    private bool ApplyBatch(DocumentIndex index, IndexingBatch batch, DateTimeOffset now, bool catchingUp) =>
        Guarded(index, () => index.Apply(batch, now, catchingUp));

    /// <summary>
    /// Runs a write to <paramref name="index"/>; an index found damaged is rebuilt, one retired meanwhile is skipped, and
    /// any other failure (a full disk, say) is recorded in <see cref="Failures"/> and retried later.
    /// </summary>
    private bool Guarded(DocumentIndex index, Func<bool> write)
    {
        try
        {
            var written = write();
            // A failing index has recovered once what it indexed is committed, not merely searchable: a batch can
            // succeed in memory and its commit still fail on a full disk.
            if (written && index.CommittedEtag >= index.WrittenEtag)
                Failures.Progressed(index.Name);
            return written;
        }
        catch (ObjectDisposedException) when (index.IsRetired)
        {
            return false; // deleted or reset while the batch was read
        }
        catch (StorageCorruptedException ex)
        {
            _log($"Index '{index.Name}': its storage is damaged ({ex.Message}); rebuilding it from the documents.");
            _rebuild(index);
            return true;
        }
#pragma warning disable CA1031 // One index failing (a full disk, say) is recorded and retried; the other indexes go on.
        catch (Exception ex) when (!_stopping && ex is not OutOfMemoryException)
        {
            Failures.Failed(index.Name, index.WrittenEtag + 1, ex);
            return false;
        }
#pragma warning restore CA1031
    }

    /// <summary>
    /// Tombstones and replacement records are only needed until every index has committed past them (an index resumes
    /// from its last commit after a crash); each purge is one write transaction, so only when there are some.
    /// </summary>
    private void PurgeTombstones(IReadOnlyList<DocumentIndex> indexes)
    {
        if (_firstUnpurged is not { } first || indexes.Count == 0 || ArePurgesHeld)
            return;
        var passedByAll = indexes.Min(i => i.CommittedEtag);
        if (passedByAll < first)
            return;
        if (_documents.IsShared)
        {
            if (SharedPurgeDue(passedByAll) is not { } due || due < first)
                return;
            passedByAll = due;
        }
        _documents.PurgeTombstones(passedByAll);
        _firstUnpurged = FirstUnpurgedAfter(passedByAll);
    }

    private long? FirstUnpurgedAfter(long etag)
    {
        long? tombstone = _documents.GetTombstonesAfterEtag(etag, 1) is [var next] ? next.Etag : null;
        long? replacement = _documents.GetReplacementsAfterEtag(etag, long.MaxValue, 1) is [var record] ? record.Etag : null;
        return tombstone is null ? replacement : replacement is null ? tombstone : Math.Min(tombstone.Value, replacement.Value);
    }

    /// <summary>
    /// Over a shared database other servers need the tombstones too, and one that has not indexed a delete before its
    /// tombstone is purged rebuilds its indexes. So a server purges only what its indexes had passed
    /// <see cref="SharedPurgeDelay"/> ago: another server behind by less never misses a delete.
    /// </summary>
    /// <returns>The etag to purge up to, or null when no purge is due yet.</returns>
    private long? SharedPurgeDue(long passedByAll)
    {
        var now = _options.TimeProvider.GetTimestamp();
        if (_sharedPurgeCandidate is not { } candidate)
        {
            _sharedPurgeCandidate = (passedByAll, now);
            return null;
        }
        if (_options.TimeProvider.GetElapsedTime(candidate.At, now) < SharedPurgeDelay)
            return null;
        _sharedPurgeCandidate = (passedByAll, now);
        return candidate.Etag;
    }
}
