namespace RavenLite.Storage.Backups;

public sealed partial record BackupManifest
{
    /// <summary>
    /// Reads the manifest in <paramref name="folder"/> without checking the files (<see cref="Verify"/> does that), to
    /// list a backup cheaply.
    /// </summary>
    /// <exception cref="InvalidDataException">There is no manifest, or it cannot be read.</exception>
    public static BackupManifest Read(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var path = Path.Combine(Path.GetFullPath(folder), FileName);
        if (!File.Exists(path))
            throw new InvalidDataException($"'{Path.GetFullPath(folder)}' has no {FileName}: it is not a backup, or one that did not finish.");
        return ReadJson(path);
    }
}
