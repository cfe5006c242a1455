namespace RavenLite.Storage;

/// <summary>
/// A read transaction of an engine that answers over a network (PostgreSQL): it can fetch many keys' values in one
/// round trip, so that the <see cref="IReadTransaction.TryGet"/> calls that follow for them are answered from memory.
/// Engines that read from local memory (LMDB) do not implement it; callers check with <c>is</c>.
/// </summary>
public interface IReadAheadTransaction : IReadTransaction
{
    /// <summary>Fetches the values stored under <paramref name="keys"/> of <paramref name="table"/> (absent ones too, as absent).</summary>
    void ReadAhead(StorageTable table, IReadOnlyList<byte[]> keys);
}
