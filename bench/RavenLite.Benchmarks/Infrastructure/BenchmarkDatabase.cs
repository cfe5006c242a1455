using RavenLite.Database;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>A <see cref="DocumentDatabase"/> in a fresh temp folder, deleted on dispose.</summary>
internal sealed class BenchmarkDatabase : IDisposable
{
    private readonly string _directory = BenchmarkFolders.NewTemp();

    public BenchmarkDatabase(bool cacheEnabled) =>
        Database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _directory, CacheSizeMb = cacheEnabled ? null : 0 });

    public DocumentDatabase Database { get; }

    public void Dispose()
    {
        Database.Dispose();
        BenchmarkFolders.Delete(_directory);
    }
}
