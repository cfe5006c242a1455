namespace RavenLite;

/// <summary>
/// A write found no room: the disk holding the database is full, or the LMDB map is full and may not grow. The
/// write was not stored (nothing of it is kept) and the database stays open: once space is freed (files removed
/// from the disk, or documents deleted to free room in the map), writes are accepted again without a restart.
/// </summary>
public sealed class StorageFullException : IOException
{
    /// <summary>Creates the exception with a message saying what is full.</summary>
    public StorageFullException(string message) : base(message) { }

    /// <summary>Creates the exception with a message and the engine's own error.</summary>
    public StorageFullException(string message, Exception inner) : base(message, inner) { }
}
