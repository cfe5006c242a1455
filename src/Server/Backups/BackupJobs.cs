using System.Globalization;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Hosting;
using RavenLite.Storage;
using RavenLite.Storage.Backups;

namespace RavenLite.Server.Backups;

/// <summary>
/// The server's backups: at most one running at a time, on a thread of its own (never a request's), and those found in
/// <see cref="RavenLiteServerOptions.BackupDirectory"/>. Start and finish times (and default folder names) come from
/// <paramref name="time"/>.
/// </summary>
internal sealed class BackupJobs(DocumentDatabase database, RavenLiteServerOptions options, TimeProvider time, ILogger<BackupJobs> logger)
{
    private const int FinishedKept = 50;
    private readonly object _lock = new();
    private readonly List<BackupJob> _jobs = [];

    /// <summary>
    /// Starts a backup into <paramref name="folder"/>, a folder name inside the backup directory (null: a new folder
    /// there named for the time), and returns at once.
    /// </summary>
    /// <exception cref="RequestException">409 while another backup runs; 400 when the name leads out of the backup directory, or the folder is not new or empty.</exception>
    public BackupJob Start(string? folder)
    {
        var now = time.GetUtcNow();
        var name = folder ?? "backup-" + now.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture);
        var target = BackupFolder.Resolve(options.BackupDirectory, name);
        if (Directory.Exists(target.FullPath) && Directory.EnumerateFileSystemEntries(target.FullPath).Any())
            throw RequestException.BadRequest($"The backup folder '{target.Relative}' is not empty: back up into a new or empty folder.");
        if (File.Exists(target.FullPath))
            throw RequestException.BadRequest($"'{target.Relative}' in the backup directory is a file: back up into a new or empty folder.");
        BackupJob job;
        lock (_lock)
        {
            if (_jobs.FirstOrDefault(j => j.State == BackupState.Running) is { } running)
                throw new RequestException(StatusCodes.Status409Conflict, ErrorCodes.BackupRunning,
                    $"A backup is already running (into '{running.Status().Folder}'); wait for it to finish. GET /admin/backups shows its progress.");
            job = new BackupJob(Path.GetFileName(target.FullPath), target.Relative, target.FullPath, now, time);
            _jobs.Insert(0, job);
            if (_jobs.Count > FinishedKept)
                _jobs.RemoveAt(_jobs.Count - 1);
        }
        _ = RunAsync(job);
        return job;
    }

    /// <summary>The backups this server ran since it started (newest first), then the others in the backup directory.</summary>
    public IReadOnlyList<BackupStatus> List()
    {
        List<BackupStatus> listed;
        lock (_lock)
            listed = [.. _jobs.Select(j => j.Status())];
        if (Directory.Exists(options.BackupDirectory))
        {
            var known = listed.Select(s => s.Folder).ToHashSet(StringComparer.Ordinal);
            listed.AddRange(Directory.EnumerateDirectories(options.BackupDirectory)
                .Where(d => !known.Contains(Path.GetFileName(d)) && File.Exists(Path.Combine(d, BackupManifest.FileName)))
                .Select(Found)
                .OfType<BackupStatus>()
                .OrderByDescending(s => s.StartedAt));
        }
        return listed;
    }

    /// <summary>The backup named <paramref name="id"/> (its folder's name), or null.</summary>
    public BackupStatus? Find(string id) =>
        List().FirstOrDefault(s => string.Equals(s.Id, id, StringComparison.Ordinal));

    private async Task RunAsync(BackupJob job)
    {
        try
        {
            var manifest = await database.BackupAsync(job.FullPath, new JobProgress(job));
            job.Succeed(manifest);
            ServerLog.BackupFinished(logger, job.FullPath, manifest.LastEtag, manifest.Documents);
        }
#pragma warning disable CA1031 // A failed backup is reported on its job and logged; it must never reach the process.
        catch (Exception ex)
        {
            var told = ex is IOException or ArgumentException or NotSupportedException or ObjectDisposedException or UnauthorizedAccessException;
            job.Fail(told ? BackupFolder.WithoutServerPaths(ex.Message, options) : ErrorMapping.UnexpectedMessage);
            ServerLog.BackupFailed(logger, ex, job.FullPath);
        }
#pragma warning restore CA1031
    }

    private BackupStatus? Found(string folder)
    {
        var name = Path.GetFileName(folder);
        try
        {
            var manifest = BackupManifest.Read(folder);
            return new BackupStatus(name, name, BackupState.Succeeded, null, manifest.Created, manifest.Created,
                manifest.LastEtag, manifest.Documents, manifest.Files.Sum(f => f.Bytes), null);
        }
        catch (InvalidDataException ex)
        {
            return new BackupStatus(name, name, BackupState.Failed, null, null, null, null, null, null, BackupFolder.WithoutServerPaths(ex.Message, options));
        }
    }

    private sealed class JobProgress(BackupJob job) : IProgress<BackupProgress>
    {
        public void Report(BackupProgress value) => job.Report(value);
    }
}

/// <summary>Whether a backup is running, finished whole, or failed.</summary>
[System.Text.Json.Serialization.JsonConverter(typeof(System.Text.Json.Serialization.JsonStringEnumConverter<BackupState>))]
internal enum BackupState
{
    Running,
    Succeeded,
    Failed,
}
