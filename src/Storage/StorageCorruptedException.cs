namespace RavenLite.Storage;

/// <summary>
/// The engine found its files damaged (a checksum or structure it cannot trust). Nothing was written by
/// the call that saw it; restore from a backup or rebuild.
/// </summary>
public sealed class StorageCorruptedException : IOException
{
    /// <summary>Creates the exception with a message naming what is damaged.</summary>
    public StorageCorruptedException(string message) : base(message) { }

    /// <summary>Creates the exception with a message and the engine's own error.</summary>
    public StorageCorruptedException(string message, Exception inner) : base(message, inner) { }
}
