using System.Security.Cryptography;

namespace RavenLite.Storage.Backups;

public sealed partial record BackupManifest
{
    /// <summary>
    /// Reads the manifest in <paramref name="folder"/> and checks every file it lists against its size and SHA-256,
    /// and that the folder holds no file it does not list.
    /// </summary>
    /// <returns>The manifest, when the backup is whole.</returns>
    /// <exception cref="InvalidDataException">The backup is damaged or partial (the message says which file and how),
    /// has no manifest, or was written by a newer RavenLite.</exception>
    public static BackupManifest Verify(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.GetFullPath(folder);
        var path = Path.Combine(root, FileName);
        if (!File.Exists(path))
            throw new InvalidDataException($"'{root}' has no {FileName}: it is not a backup, or one that did not finish.");
        var manifest = ReadJson(path);
        foreach (var file in manifest.Files)
        {
            if (!IsInside(file.Path))
                throw new InvalidDataException($"The backup in '{root}' is damaged: its manifest names the file '{file.Path}', outside the backup.");
            var actual = Path.Combine(root, file.Path);
            if (!File.Exists(actual))
                throw new InvalidDataException($"The backup in '{root}' is partial: '{file.Path}' is missing.");
            var found = Describe(root, file.Path);
            if (found.Bytes != file.Bytes)
                throw new InvalidDataException($"The backup in '{root}' is damaged: '{file.Path}' has {found.Bytes} bytes; the manifest says {file.Bytes}.");
            if (found.Sha256 != file.Sha256)
                throw new InvalidDataException($"The backup in '{root}' is damaged: the SHA-256 of '{file.Path}' differs from the manifest's.");
        }
        var listed = manifest.Files.Select(f => f.Path).ToHashSet(StringComparer.Ordinal);
        var unlisted = Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories)
            .Select(p => RelativePath(root, p))
            .FirstOrDefault(p => p != FileName && !listed.Contains(p));
        if (unlisted is not null)
            throw new InvalidDataException($"The backup in '{root}' holds '{unlisted}', which its manifest does not list.");
        return manifest;
    }

    /// <summary>
    /// Verifies the backup in <paramref name="backupFolder"/>, then copies its files into
    /// <paramref name="dataDirectory"/> (a new or empty folder), checking each copy's SHA-256 as it is written and
    /// flushing it to disk. On any failure what was copied is removed.
    /// </summary>
    /// <returns>The backup's manifest.</returns>
    /// <exception cref="InvalidDataException">The backup is damaged or partial.</exception>
    /// <exception cref="ArgumentException"><paramref name="dataDirectory"/> is not a new or empty folder.</exception>
    public static BackupManifest Restore(string backupFolder, string dataDirectory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(dataDirectory);
        var manifest = Verify(backupFolder);
        var source = Path.GetFullPath(backupFolder);
        var target = Path.GetFullPath(dataDirectory);
        if (Directory.Exists(target) && Directory.EnumerateFileSystemEntries(target).Any())
            throw new ArgumentException($"'{target}' is not empty: restore into a new or empty folder.", nameof(dataDirectory));
        Directory.CreateDirectory(target);
        try
        {
            foreach (var file in manifest.Files)
                CopyChecked(source, target, file);
        }
        catch
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(target))
            {
                if (Directory.Exists(entry))
                    Directory.Delete(entry, recursive: true);
                else
                    File.Delete(entry);
            }
            throw;
        }
        return manifest;
    }

    private static void CopyChecked(string source, string target, BackupFile file)
    {
        var destination = Path.Combine(target, file.Path);
        Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        using (var input = File.OpenRead(Path.Combine(source, file.Path)))
        using (var output = new FileStream(destination, FileMode.CreateNew, FileAccess.Write))
        {
            var buffer = new byte[1024 * 1024];
            for (int read; (read = input.Read(buffer)) > 0;)
            {
                hash.AppendData(buffer, 0, read);
                output.Write(buffer, 0, read);
            }
            output.Flush(flushToDisk: true);
        }
        if (Convert.ToHexStringLower(hash.GetHashAndReset()) != file.Sha256)
            throw new InvalidDataException($"'{file.Path}' changed while it was restored: its SHA-256 differs from the manifest's.");
    }

    private static bool IsInside(string relativePath) =>
        !Path.IsPathRooted(relativePath) && !relativePath.Split('/', '\\').Contains("..");
}
