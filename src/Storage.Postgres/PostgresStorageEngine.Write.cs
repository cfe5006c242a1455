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
            using var tx = PostgresWriteTransaction.Begin(this, mode);
            var result = work(tx);
            tx.Commit();
            return result;
        }
    }
}
