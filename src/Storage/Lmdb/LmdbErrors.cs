using RavenLite.Storage.Lmdb.Native;

namespace RavenLite.Storage.Lmdb;

/// <summary>Turns LMDB return codes into exceptions.</summary>
internal static class LmdbErrors
{
    public static void Check(int code, string operation)
    {
        if (code != MdbConstants.Success)
            throw ToException(code, operation);
    }

    public static Exception ToException(int code, string operation)
    {
        var message = $"{operation} failed: {LmdbNative.Describe(code)}";
        return code switch
        {
            MdbConstants.MapFull => new LmdbMapFullException(message),
            MdbConstants.NoSpaceLeft => new StorageFullException(
                $"The disk holding the database is full: {message}. Nothing of this write was stored; free disk space and retry."),
            MdbConstants.InputOutputError => new LmdbInputOutputException(message),
            MdbConstants.BadValSize => new ArgumentException(
                $"{message} (a key is longer than the engine's maximum of 511 bytes, or empty)."),
            MdbConstants.Corrupted or MdbConstants.PageNotFound or MdbConstants.Panic
                or MdbConstants.VersionMismatch or MdbConstants.Invalid => new StorageCorruptedException(message),
            _ => new IOException(message),
        };
    }
}

/// <summary>The map is full: the engine grows it and runs the write again. Never leaves the engine.</summary>
internal sealed class LmdbMapFullException(string message) : IOException(message);

/// <summary>
/// EIO from LMDB, which it also returns for a short write: the engine turns it into a
/// <see cref="StorageFullException"/> when the disk is in fact full.
/// </summary>
internal sealed class LmdbInputOutputException(string message) : IOException(message);
