namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// A fresh folder under the system temp folder, removed on dispose with the PostgreSQL schema opened for it, if any.
/// </summary>
public sealed class TempDirectory : IDisposable
{
    public TempDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public void Dispose()
    {
        TestPostgres.DropForDirectory(Path);
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A child process may still be exiting; the OS temp cleaner gets it.
        }
    }
}
