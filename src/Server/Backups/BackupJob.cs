using RavenLite.Database;
using RavenLite.Storage.Backups;

namespace RavenLite.Server.Backups;

/// <summary>One backup the server runs: updated from the backup's thread, read by requests.</summary>
internal sealed class BackupJob(string id, string folder, string fullPath, DateTimeOffset startedAt, TimeProvider time)
{
    private readonly object _lock = new();
    private BackupStatus _status = new(id, folder, BackupState.Running, null, startedAt, null, null, null, null, null);

    /// <summary>Where the backup is written, on the server's machine; never in a status.</summary>
    public string FullPath => fullPath;

    public BackupState State => Status().State;

    public BackupStatus Status()
    {
        lock (_lock)
            return _status;
    }

    public void Report(BackupProgress progress)
    {
        lock (_lock)
            _status = _status with { Step = progress.Finished ? _status.Step : progress.Step };
    }

    public void Succeed(BackupManifest manifest)
    {
        lock (_lock)
            _status = _status with
            {
                State = BackupState.Succeeded, Step = null, FinishedAt = time.GetUtcNow(), LastEtag = manifest.LastEtag,
                Documents = manifest.Documents, Bytes = manifest.Files.Sum(f => f.Bytes),
            };
    }

    public void Fail(string error)
    {
        lock (_lock)
            _status = _status with { State = BackupState.Failed, FinishedAt = time.GetUtcNow(), Error = error };
    }
}

/// <summary>What <c>/admin/backups</c> says about one backup.</summary>
/// <param name="Id">Its folder's name: <c>GET /admin/backups/{Id}</c>.</param>
/// <param name="Folder">Its folder, relative to the backup directory (<c>--backup-dir</c>).</param>
/// <param name="State">Running, Succeeded or Failed.</param>
/// <param name="Step">While running: documents, indexes or manifest.</param>
/// <param name="StartedAt">When it began (for one found on disk: its manifest's time).</param>
/// <param name="FinishedAt">When it finished.</param>
/// <param name="LastEtag">The etag of the last write it holds.</param>
/// <param name="Documents">How many documents it holds.</param>
/// <param name="Bytes">Its size.</param>
/// <param name="Error">Why it failed.</param>
internal sealed record BackupStatus(string Id, string Folder, BackupState State, string? Step, DateTimeOffset? StartedAt,
    DateTimeOffset? FinishedAt, long? LastEtag, long? Documents, long? Bytes, string? Error);
