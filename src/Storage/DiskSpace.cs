namespace RavenLite.Storage;

/// <summary>Tells a full disk from other I/O failures, which some engines report alike.</summary>
internal static class DiskSpace
{
    /// <summary>
    /// Below this many free bytes a failed write is taken for a full disk. A write that fills a disk leaves far
    /// less than this (a short write uses up what is left); any real write needs more.
    /// </summary>
    public const long FullBelowBytes = 1024 * 1024;

    /// <summary>Whether the file system holding <paramref name="folder"/> has (almost) no space left for this process.</summary>
    public static bool IsFull(string folder)
    {
        try
        {
            return new DriveInfo(Path.GetFullPath(folder)).AvailableFreeSpace < FullBelowBytes;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return false; // cannot tell: report the engine's own error
        }
    }

    /// <summary>The exception for a write that failed because the disk holding <paramref name="folder"/> is full.</summary>
    public static StorageFullException Full(string folder, Exception cause) =>
        cause as StorageFullException ?? new StorageFullException(
            $"The disk holding '{folder}' is full ({cause.Message}). Nothing of this write was stored; free disk space " +
            "and retry.", cause);
}
