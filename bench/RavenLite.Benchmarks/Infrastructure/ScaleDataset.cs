using RavenLite.Database;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>
/// The scale benchmarks' databases: <see cref="Carts"/> seed carts and the rest user documents, built once per size
/// and kept under the temp folder for later processes and runs (BenchmarkDotNet starts a process per case; a
/// million documents take about a minute to build and index), rebuilt whenever a build did not finish.
/// </summary>
internal static class ScaleDataset
{
    /// <summary>Carts in every size: the selective query's result is the same at every scale.</summary>
    public const int Carts = 1_000;

    /// <summary>Bump when the dataset's contents change, so stale folders are not reused.</summary>
    private const string Version = "v1";

    private const string CompleteMarker = "benchmark-dataset-complete";

    /// <summary>Opens the dataset of <paramref name="documents"/> documents, building it first if needed.</summary>
    public static DocumentDatabase Open(int documents)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(documents, Carts);
        var directory = Path.Combine(BenchmarkFolders.Root, "datasets", $"scale-{documents}-{Version}");
        var marker = Path.Combine(directory, CompleteMarker);
        if (!File.Exists(marker))
        {
            BenchmarkFolders.Delete(directory);
            using (var building = OpenAt(directory))
                SeedDataset.Load(building, Carts, documents - Carts);
            File.WriteAllText(marker, $"{documents} documents\n");
        }
        var database = OpenAt(directory);
        SeedDataset.WaitForIndex(database, Carts);
        return database;
    }

    private static DocumentDatabase OpenAt(string directory) => new(new DocumentDatabaseOptions { DataDirectory = directory });
}
