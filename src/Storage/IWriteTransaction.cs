namespace RavenLite.Storage;

/// <summary>The write transaction: reads see its own writes.</summary>
public interface IWriteTransaction : IReadTransaction
{
    /// <summary>Stores <paramref name="value"/> under <paramref name="key"/>, replacing any value there.</summary>
    void Put(StorageTable table, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Removes <paramref name="key"/>; false when it was not there.</summary>
    bool Delete(StorageTable table, ReadOnlySpan<byte> key);
}
