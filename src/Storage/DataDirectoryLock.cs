namespace RavenLite.Storage;

/// <summary>
/// Holds <c>ravenlite.lock</c> in a data directory open exclusively, so a second process (or a second
/// store in this one) gets a clear error instead of sharing files it does not coordinate with.
/// </summary>
internal sealed class DataDirectoryLock : IDisposable
{
    public const string FileName = "ravenlite.lock";
    private FileStream? _file;

    private DataDirectoryLock(FileStream file) => _file = file;

    public static DataDirectoryLock Acquire(string directory)
    {
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, FileName);
        try
        {
            // FileShare.None takes an exclusive advisory lock (flock) on Unix and a share lock on Windows.
            var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            file.SetLength(0);
            using (var writer = new StreamWriter(file, leaveOpen: true))
                writer.Write($"{Environment.ProcessId}\n");
            file.Flush();
            return new DataDirectoryLock(file);
        }
        catch (IOException ex) when (ex is not FileNotFoundException and not DirectoryNotFoundException)
        {
            throw new IOException(
                $"The database in '{directory}' is already open in another process (or another DocumentDatabase " +
                "in this one). Only one may open a data directory at a time.", ex);
        }
    }

    public void Dispose()
    {
        Interlocked.Exchange(ref _file, null)?.Dispose();
    }
}
