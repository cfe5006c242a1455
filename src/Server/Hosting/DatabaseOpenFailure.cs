using RavenLite.Storage;

namespace RavenLite.Server.Hosting;

/// <summary>
/// The failures of opening a database that are the user's to fix (a locked, unreadable or damaged folder, a bad
/// option, an unreachable or refusing PostgreSQL) and become one clear message, for the server and the tool alike;
/// anything else is a bug and keeps its stack trace.
/// </summary>
internal static class DatabaseOpenFailure
{
    public static bool Is(Exception exception) =>
        exception is IOException or UnauthorizedAccessException or PlatformNotSupportedException or StorageCorruptedException
            or ArgumentException or System.Data.Common.DbException;
}
