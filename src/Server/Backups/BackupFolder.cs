using RavenLite.Server.Errors;

namespace RavenLite.Server.Backups;

/// <summary>
/// A backup's folder: a name inside <see cref="RavenLiteServerOptions.BackupDirectory"/> (<c>nightly-1</c>, or
/// <c>2026/nightly-1</c>), never a path that leads out of it. An absolute path, a <c>.</c> or <c>..</c> segment, a drive
/// or stream (<c>:</c>), a character not allowed in file names, and a symbolic link anywhere on the way (one could point
/// anywhere) are refused with 400. Only <see cref="Relative"/> ever leaves the server: the backup directory's own path
/// appears in no status or error.
/// </summary>
internal sealed class BackupFolder
{
    private static readonly char[] s_separators = ['/', '\\'];

    private BackupFolder(string relative, string fullPath)
    {
        Relative = relative;
        FullPath = fullPath;
    }

    /// <summary>The name as clients see it: relative to the backup directory, with <c>/</c> between segments.</summary>
    public string Relative { get; }

    /// <summary>Where it is on the server's machine; for the server only.</summary>
    public string FullPath { get; }

    /// <summary>Resolves <paramref name="name"/> inside <paramref name="backupDirectory"/>.</summary>
    /// <exception cref="RequestException">400: the name is not a folder inside the backup directory.</exception>
    public static BackupFolder Resolve(string backupDirectory, string name)
    {
        var segments = name.Split(s_separators);
        if (name.Length > 200 || Path.IsPathRooted(name) || segments.Any(s => !IsPlainName(s)))
            throw Refused(name, "it must be a folder name inside the backup directory (--backup-dir), such as nightly-1 or 2026/nightly-1: " +
                "no absolute path, drive, '.' or '..' segment, empty segment, or character a file name may not hold");
        var root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(backupDirectory));
        var path = root;
        foreach (var segment in segments)
        {
            path = Path.Combine(path, segment);
            // A link anywhere below the backup directory could lead anywhere; the backup directory itself is the operator's.
            if (new DirectoryInfo(path) is { Exists: true, LinkTarget: not null } || new FileInfo(path) is { Exists: true, LinkTarget: not null })
                throw Refused(name, $"'{string.Join('/', segments.TakeWhile(s => !ReferenceEquals(s, segment)).Append(segment))}' is a symbolic link");
        }
        var full = Path.GetFullPath(path);
        if (!full.StartsWith(root + Path.DirectorySeparatorChar, OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal))
            throw Refused(name, "it leads out of the backup directory");
        return new BackupFolder(string.Join('/', segments), full);
    }

    /// <summary>
    /// <paramref name="message"/> with the backup directory's path (and the data directory's) taken out: a backup's
    /// error may quote where it failed, but statuses name paths relative to the backup directory.
    /// </summary>
    public static string WithoutServerPaths(string message, RavenLiteServerOptions options)
    {
        var backups = Path.TrimEndingDirectorySeparator(options.BackupDirectory);
        var data = Path.TrimEndingDirectorySeparator(options.Database.DataDirectory);
        return message
            .Replace(backups + Path.DirectorySeparatorChar, "", StringComparison.Ordinal)
            .Replace(backups, "<backup-dir>", StringComparison.Ordinal)
            .Replace(data, "<data-dir>", StringComparison.Ordinal);
    }

    private static bool IsPlainName(string segment) =>
        segment.Length > 0 && segment is not ("." or "..") && segment.Trim().Length == segment.Length && !segment.EndsWith('.')
        && segment.IndexOfAny(Path.GetInvalidFileNameChars()) < 0 && !segment.Contains(':', StringComparison.Ordinal)
        && !segment.Any(char.IsControl);

    private static RequestException Refused(string name, string why) =>
        RequestException.BadRequest($"The backup folder '{name}' is refused: {why}.");
}
