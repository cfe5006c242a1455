namespace RavenLite.Storage.Postgres;

internal sealed partial class PostgresStorageEngine
{
    public T Write<T>(Func<IWriteTransaction, T> work, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(work);
        // One writer per instance holds a connection at a time; the writer lock in PostgreSQL orders instances.
        lock (_writeLock)
        {
            ThrowIfDisposed();
            using var tx = WithFreshConnectionOnFailure(() => PostgresWriteTransaction.Begin(this, mode));
            T result;
            try
            {
                result = work(tx);
            }
            catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
            {
                throw Failed(ex, outcomeUnknown: false);
            }
            tx.Commit();
            return result;
        }
    }
}
