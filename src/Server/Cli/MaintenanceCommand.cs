using System.Globalization;
using RavenLite.Database;

namespace RavenLite.Server.Cli;

/// <summary>
/// <c>ravenlite backup</c> (of a folder, or of a running server through <c>POST /admin/backup</c>), <c>restore</c>
/// (verified against the manifest, into a new or empty folder) and <c>compact</c> (offline).
/// </summary>
internal static class MaintenanceCommand
{
    /// <summary>Runs the verb, writing progress to <paramref name="error"/>; returns the outcome, one line.</summary>
    /// <exception cref="TransferException">The verb failed; the message says why.</exception>
    public static async Task<string> RunAsync(MaintenanceOptions options, TextWriter error)
    {
        try
        {
            return options.Verb switch
            {
                "backup" when options.Url is not null => await RemoteBackup.RunAsync(options.Url, options.ApiKey, options.Folder, error),
                "backup" => Backup(options.DataDirectory!, options.Folder, error),
                "restore" => Restore(options.Folder, options.DataDirectory!, error),
                _ => Compact(options.DataDirectory!, error),
            };
        }
        catch (Exception ex) when (ex is IOException or InvalidDataException or UnauthorizedAccessException or ArgumentException
                                       or NotSupportedException or HttpRequestException)
        {
            // Each says what it is: a damaged or partial backup, a full disk (StorageFullException), a folder in use.
            throw new TransferException(ex.Message, ex);
        }
    }

    private static string Backup(string dataDirectory, string folder, TextWriter error)
    {
        using var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = Path.GetFullPath(dataDirectory) });
        var manifest = database.Backup(folder, new StepPrinter(error));
        return Text($"Backed up {manifest.Documents:N0} documents up to etag {manifest.LastEtag} into {Path.GetFullPath(folder)} ({Megabytes(manifest.Files.Sum(f => f.Bytes))}, {manifest.Files.Count} files).");
    }

    private static string Restore(string backup, string dataDirectory, TextWriter error)
    {
        error.WriteLine($"Verifying {Path.GetFullPath(backup)} against its manifest and copying it...");
        var manifest = DocumentDatabase.Restore(backup, dataDirectory);
        return Text($"Restored {manifest.Documents:N0} documents up to etag {manifest.LastEtag} (backup of {manifest.Created:u}, RavenLite {manifest.Version}) into {Path.GetFullPath(dataDirectory)}; every file matched its SHA-256.");
    }

    private static string Compact(string dataDirectory, TextWriter error)
    {
        error.WriteLine($"Compacting {Path.GetFullPath(dataDirectory)} (no server may have it open)...");
        var result = DocumentDatabase.Compact(dataDirectory);
        return Text($"Compacted the data file from {Megabytes(result.BytesBefore)} to {Megabytes(result.BytesAfter)} ({result.BytesBefore:N0} -> {result.BytesAfter:N0} bytes).");
    }

    internal static string Megabytes(long bytes) => Text($"{bytes / (1024.0 * 1024):N1} MiB");

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    /// <summary>One line per finished backup step, as it finishes.</summary>
    private sealed class StepPrinter(TextWriter writer) : IProgress<BackupProgress>
    {
        public void Report(BackupProgress value)
        {
            if (value.Finished)
                writer.WriteLine(Text($"  {value.Step,-10} {Megabytes(value.Bytes),12}  at {value.Elapsed.TotalSeconds:0.0} s"));
            else
                writer.WriteLine(Text($"  {value.Step,-10} ..."));
        }
    }
}
