using RavenLite.Storage.Backups;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    /// <summary>
    /// Writes a consistent copy of the database into <paramref name="folder"/> (a new or empty folder) while reads and
    /// writes go on: the documents as of one moment (a compacting LMDB copy), each index as of its last commit before
    /// that moment, and a <see cref="BackupManifest"/> listing every file with its SHA-256. The folder restores with
    /// <see cref="Restore"/>; there the indexes catch up from their commits instead of being rebuilt.
    /// </summary>
    /// <param name="folder">Where to write the backup: a new or empty folder.</param>
    /// <param name="progress">Told as each step (documents, indexes, manifest) starts and finishes.</param>
    /// <returns>The manifest: the last etag and number of documents the backup holds, and its files.</returns>
    /// <exception cref="ArgumentException"><paramref name="folder"/> is not a new or empty folder.</exception>
    /// <exception cref="NotSupportedException">The database does not run on LMDB.</exception>
    /// <exception cref="StorageFullException">The disk holding <paramref name="folder"/> filled up; what was
    /// copied is removed.</exception>
    public BackupManifest Backup(string folder, IProgress<BackupProgress>? progress = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.GetFullPath(folder);
        if (Directory.Exists(root) && Directory.EnumerateFileSystemEntries(root).Any())
            throw new ArgumentException($"The backup folder '{root}' is not empty: back up into a new or empty folder.", nameof(folder));
        var time = Options.TimeProvider;
        var created = time.GetUtcNow();
        var started = time.GetTimestamp();
        using var indexes = Indexes.BeginBackup();
        progress?.Report(new BackupProgress(BackupProgress.DocumentsStep, false, 0, time.GetElapsedTime(started)));
        var documents = Documents.Backup(root);
        progress?.Report(new BackupProgress(BackupProgress.DocumentsStep, true, documents.Bytes, time.GetElapsedTime(started)));
        try
        {
            progress?.Report(new BackupProgress(BackupProgress.IndexesStep, false, 0, time.GetElapsedTime(started)));
            var indexBytes = indexes.CopyTo(root);
            progress?.Report(new BackupProgress(BackupProgress.IndexesStep, true, indexBytes, time.GetElapsedTime(started)));
            progress?.Report(new BackupProgress(BackupProgress.ManifestStep, false, 0, time.GetElapsedTime(started)));
            var manifest = BackupManifest.Write(root, documents.LastEtag, documents.Documents, created);
            progress?.Report(new BackupProgress(BackupProgress.ManifestStep, true, manifest.Files.Sum(f => f.Bytes), time.GetElapsedTime(started)));
            return manifest;
        }
        catch
        {
            EmptyFolder(root); // what was copied must not pass for a backup
            throw;
        }
    }

    /// <summary>
    /// <see cref="Backup"/> on a thread of its own (the copy is long and synchronous), so no caller's thread waits on it.
    /// </summary>
    /// <param name="folder">Where to write the backup: a new or empty folder.</param>
    /// <param name="progress">Told as each step starts and finishes.</param>
    /// <param name="cancellationToken">Cancels the backup before it starts; once started it runs to the end.</param>
    public Task<BackupManifest> BackupAsync(string folder, IProgress<BackupProgress>? progress = null,
        CancellationToken cancellationToken = default) =>
        Task.Factory.StartNew(() => Backup(folder, progress), cancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>
    /// Verifies the backup in <paramref name="backupFolder"/> against its manifest, then copies it into
    /// <paramref name="dataDirectory"/> (a new or empty folder), which then opens as the database the backup holds.
    /// </summary>
    /// <returns>The backup's manifest.</returns>
    /// <exception cref="InvalidDataException">The backup is damaged or partial; the message names the file. Nothing is
    /// left in <paramref name="dataDirectory"/>.</exception>
    /// <exception cref="ArgumentException"><paramref name="dataDirectory"/> is not a new or empty folder.</exception>
    public static BackupManifest Restore(string backupFolder, string dataDirectory) =>
        BackupManifest.Restore(backupFolder, dataDirectory);

    /// <summary>
    /// Shrinks the data file of the closed database in <paramref name="dataDirectory"/> to the pages it uses, keeping
    /// every document, etag and count (<see cref="DocumentStore.Compact"/>).
    /// </summary>
    /// <returns>The data file's size before and after.</returns>
    /// <exception cref="IOException">The database is open, in this process or another.</exception>
    /// <exception cref="ArgumentException">The folder holds no LMDB database.</exception>
    public static CompactionResult Compact(string dataDirectory) => DocumentStore.Compact(dataDirectory);

    private static void EmptyFolder(string root)
    {
        foreach (var entry in Directory.EnumerateFileSystemEntries(root))
        {
            if (Directory.Exists(entry))
                Directory.Delete(entry, recursive: true);
            else
                File.Delete(entry);
        }
    }
}

/// <summary>Where a <see cref="DocumentDatabase.Backup"/> is: a step started or finished.</summary>
/// <param name="Step"><see cref="DocumentsStep"/>, <see cref="IndexesStep"/> or <see cref="ManifestStep"/>.</param>
/// <param name="Finished">Whether the step finished (else it started).</param>
/// <param name="Bytes">When finished: the bytes the step wrote (for the manifest step, the whole backup's).</param>
/// <param name="Elapsed">Time since the backup began.</param>
public sealed record BackupProgress(string Step, bool Finished, long Bytes, TimeSpan Elapsed)
{
    /// <summary>Copying the documents (one LMDB snapshot).</summary>
    public const string DocumentsStep = "documents";

    /// <summary>Copying the indexes' pinned commits.</summary>
    public const string IndexesStep = "indexes";

    /// <summary>Hashing every file and writing the manifest.</summary>
    public const string ManifestStep = "manifest";
}
