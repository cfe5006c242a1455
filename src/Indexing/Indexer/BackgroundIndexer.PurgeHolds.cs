namespace RavenLite.Indexing.Indexer;

internal sealed partial class BackgroundIndexer
{
    private int _purgeHolds;

    private bool ArePurgesHeld => Volatile.Read(ref _purgeHolds) > 0;

    /// <summary>
    /// Keeps every tombstone until the result is disposed. A backup holds them from before it pins the indexes'
    /// commits until the documents are copied, so the copy still has the deletions those commits have not seen.
    /// </summary>
    /// <remarks>
    /// A purge already under way when the hold begins only removes tombstones the indexes had committed past, and
    /// it runs on the indexer thread before that thread's next commit, so any commit pinned afterwards is past them too.
    /// </remarks>
    public IDisposable HoldPurges()
    {
        Interlocked.Increment(ref _purgeHolds);
        return new PurgeHold(this);
    }

    private sealed class PurgeHold(BackgroundIndexer indexer) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
                Interlocked.Decrement(ref indexer._purgeHolds);
        }
    }
}
