namespace RavenLite.Storage.Documents;

public sealed partial class DocumentStore
{
    private long _lastEtag = -1;

    /// <summary>The highest etag this store has seen committed (-1 before it has read one): no new etag may be at or below it.</summary>
    internal long SeenLastEtag => Volatile.Read(ref _lastEtag);

    /// <summary>
    /// Raised after every committed put, delete or batch, on the writing thread, with the last etag it
    /// gave out; with an engine other servers write too, also when their commits become known (on the engine's
    /// listener thread, or on the thread that called <see cref="ReadLastEtag"/>). Handlers must be quick (wake a worker); an exception from one is not the writer's problem
    /// and is swallowed.
    /// </summary>
    public event Action<long>? DocumentsChanged;

    /// <summary>The last etag given out by a committed write (0 for a new store). Cheap: kept in memory.</summary>
    public long LastEtag
    {
        get
        {
            var etag = Volatile.Read(ref _lastEtag);
            if (etag >= 0)
                return etag;
            // First use: read it once from the state table; writes keep it current from then on.
            using var tx = Engine.BeginRead();
            var stored = StoredValues.ReadInt64(tx, StateTable, LastEtagName);
            Interlocked.CompareExchange(ref _lastEtag, stored, -1);
            return Volatile.Read(ref _lastEtag);
        }
    }

    /// <summary>
    /// The last etag committed, read from storage: with an engine that other servers write too (PostgreSQL), this
    /// includes their commits, which <see cref="LastEtag"/> learns only when their notification arrives. Costs a read
    /// transaction; for waits that must cover every write acknowledged anywhere before they began.
    /// </summary>
    public long ReadLastEtag()
    {
        ThrowIfDisposed();
        using (var tx = Engine.BeginRead())
            Advance(StoredValues.ReadInt64(tx, StateTable, LastEtagName));
        return LastEtag;
    }

    /// <summary>
    /// Raised, with an engine other servers write too, when one of them committed (or now and then, as the engine
    /// polls), after <see cref="LastEtag"/> caught up: for what a server keeps beside the documents, such as index
    /// definitions, to be read again. On the engine's listener thread; handlers must be quick or hand off.
    /// </summary>
    public event Action? CommittedElsewhere;

    /// <summary>Another server committed (or the engine polled): catch up with the stored last etag.</summary>
    private void OnCommittedElsewhere()
    {
        if (Volatile.Read(ref _disposed) != 0)
            return;
        try
        {
            ReadLastEtag();
            CommittedElsewhere?.Invoke();
        }
#pragma warning disable CA1031 // a background wake-up; the next one (the engine polls) retries
        catch (Exception)
#pragma warning restore CA1031
        {
        }
    }

    private void PublishCommit(BatchResult[] results)
    {
        long newest = 0;
        foreach (var result in results)
            newest = Math.Max(newest, result.Etag ?? 0);
        if (newest == 0)
            return; // nothing written (deletes of missing documents)
        Advance(newest);
    }

    /// <summary>Moves <see cref="LastEtag"/> up to <paramref name="newest"/> and, when it moved, tells the listeners.</summary>
    private void Advance(long newest)
    {
        for (var seen = Volatile.Read(ref _lastEtag); seen < newest; seen = Volatile.Read(ref _lastEtag))
        {
            if (Interlocked.CompareExchange(ref _lastEtag, newest, seen) != seen)
                continue;
            try
            {
                DocumentsChanged?.Invoke(newest);
            }
#pragma warning disable CA1031 // a listener's failure must not turn a committed write into an error
            catch (Exception)
#pragma warning restore CA1031
            {
            }
            return;
        }
    }
}
