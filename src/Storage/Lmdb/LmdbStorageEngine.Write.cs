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

    private int Commit(LmdbWriteTransaction tx, CommitMode mode)
    {
        if (mode == CommitMode.Durable)
            return tx.Commit();
        // NOSYNC may be switched per commit; only the writer (holding _writeLock) commits.
        LmdbErrors.Check(LmdbNative.EnvSetFlags(_env, MdbConstants.NoSync, 1), "Setting lazy commit");
        try
        {
            return tx.Commit();
        }
        finally
        {
            _ = LmdbNative.EnvSetFlags(_env, MdbConstants.NoSync, 0);
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
