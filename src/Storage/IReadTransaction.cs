namespace RavenLite.Storage;

/// <summary>A consistent snapshot of the store.</summary>
public interface IReadTransaction : IDisposable
{
    /// <summary>
    /// Reads the value stored under <paramref name="key"/>. The span points into the engine's memory
    /// (LMDB's map) or a buffer of the transaction's, and is valid until the transaction ends.
    /// </summary>
    bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value);

    /// <summary>Opens an ordered cursor over <paramref name="table"/>; dispose it before the transaction.</summary>
    IStorageCursor OpenCursor(StorageTable table);
}
