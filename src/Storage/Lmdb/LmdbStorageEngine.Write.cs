using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

internal sealed partial class LmdbStorageEngine
{
    public T Write<T>(Func<IWriteTransaction, T> work, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(work);
        lock (_writeLock)
        {
            while (true)
            {
                ThrowIfDisposed();
                bool written;
                T result;
                try
                {
                    written = TryWrite(work, mode, out result);
                }
                catch (LmdbInputOutputException ex) when (DiskSpace.IsFull(_folder))
                {
                    throw DiskSpace.Full(_folder, ex);
                }
                if (written)
                    return result;
                Grow();
            }
        }
    }

    /// <returns>False when the map filled up; the transaction was aborted and nothing was written.</returns>
    private bool TryWrite<T>(Func<IWriteTransaction, T> work, CommitMode mode, out T result)
    {
        Gate.Enter();
        try
        {
            LmdbErrors.Check(LmdbNative.TxnBegin(_env, 0, 0, out var handle), "Beginning the write transaction");
            using var tx = new LmdbWriteTransaction(this, handle);
            try
            {
                result = work(tx);
            }
            catch (LmdbMapFullException)
            {
                result = default!;
                return false;
            }
            var code = Commit(tx, mode);
            if (code == MdbConstants.MapFull)
                return false;
            LmdbErrors.Check(code, "Committing the write transaction");
            return true;
        }
        finally
        {
            Gate.Exit();
        }
    }

    /// <remarks>
    /// A durable commit writes the dirty pages, <c>fdatasync</c>s the data file, then writes the meta page through a
    /// descriptor opened with <c>O_DSYNC</c>: two waits on the disk. A pipelined one (<c>MDB_NOMETASYNC</c>) makes the
    /// first wait and writes the meta page unsynced; the next commit's <c>fdatasync</c> (of the same file) makes that
    /// meta page durable before the next one is written. LMDB keeps the two latest meta pages and reuses no page the
    /// older one reaches, so a crash falls back to the previous commit, whole. A lazy one (<c>MDB_NOSYNC</c>) waits
    /// for neither.
    /// </remarks>
    private int Commit(LmdbWriteTransaction tx, CommitMode mode)
    {
        var flag = mode switch
        {
            CommitMode.Durable => 0u,
            CommitMode.Lazy => MdbConstants.NoSync,
            CommitMode.Pipelined => MdbConstants.NoMetaSync,
            _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, "Not a commit mode."),
        };
        if (flag == 0)
            return tx.Commit();
        // The sync flags may be switched per commit; only the writer (holding _writeLock) commits.
        LmdbErrors.Check(LmdbNative.EnvSetFlags(_env, flag, 1), $"Setting the {mode} commit");
        try
        {
            return tx.Commit();
        }
        finally
        {
            _ = LmdbNative.EnvSetFlags(_env, flag, 0);
        }
    }

    private void Grow()
    {
        var current = MapSize;
        var target = current > _maxMapSize / 2 ? _maxMapSize : current * 2;
        if (target <= current)
            throw new StorageFullException(
                $"The LMDB map is full: it holds {current} bytes, the most it may grow to. Nothing of this write was " +
                "stored; delete documents to free room in the map, or allow a larger map.");
        var resized = Gate.RunExclusive(() =>
        {
            var code = LmdbNative.EnvSetMapSize(_env, (nuint)target);
            if (code != MdbConstants.Success)
                throw new StorageFullException(
                    $"The LMDB map is full ({current} bytes) and could not grow to {target} bytes: " +
                    $"{LmdbNative.Describe(code)}. Nothing of this write was stored.");
            Interlocked.Exchange(ref _mapSize, target);
        }, CloseTimeout);
        if (!resized)
            throw new IOException(
                $"The LMDB map is full ({MapSize} bytes) and could not grow: read transactions stayed open for {CloseTimeout.TotalSeconds} s.");
    }

    /// <summary>Flushes lazy commits to disk.</summary>
    public void Flush() => LmdbErrors.Check(LmdbNative.EnvSync(_env, 1), "Flushing the environment");

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        lock (_writeLock)
        {
            var closed = Gate.RunExclusive(() =>
            {
                _ = LmdbNative.EnvSync(_env, 1);
                LmdbNative.EnvClose(_env);
                _env = 0;
            }, CloseTimeout);
            if (!closed)
                throw new InvalidOperationException(
                    "The LMDB environment was not closed: read transactions were still open after " +
                    $"{CloseTimeout.TotalSeconds} s. Dispose every transaction before the engine.");
        }
    }
}
