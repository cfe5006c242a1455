namespace RavenLite.Storage;

/// <summary>
/// A transactional, ordered key-value store with named tables: many concurrent read transactions
/// (snapshots), one write transaction at a time, ordered cursors.
/// </summary>
/// <remarks>
/// Engines are synchronous: LMDB and ESENT write transactions are bound to the thread that began them,
/// so never <c>await</c> inside <see cref="Write{T}"/>.
/// </remarks>
public interface IStorageEngine : IDisposable
{
    /// <summary>Which engine this is.</summary>
    StorageEngineKind Kind { get; }

    /// <summary>Opens a table by name, creating it when missing.</summary>
    StorageTable OpenTable(string name);

    /// <summary>Begins a read-only snapshot. Dispose it to end it; spans it hands out are valid until then.</summary>
    IReadTransaction BeginRead();

    /// <summary>
    /// Runs <paramref name="work"/> in the one write transaction and commits it. An exception from
    /// <paramref name="work"/> aborts the transaction: nothing it wrote is kept.
    /// </summary>
    /// <remarks>
    /// The engine may run <paramref name="work"/> more than once (LMDB grows its map and retries when it
    /// is full), so it must not have effects outside the transaction until it returns.
    /// </remarks>
    T Write<T>(Func<IWriteTransaction, T> work, CommitMode mode = CommitMode.Durable);
}
