using System.Diagnostics;
using System.Globalization;
using RavenLite.Database;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>
/// The scale benchmarks' databases: <see cref="Carts"/> seed carts and the rest user documents, built once per size
/// and kept under the temp folder for later processes and runs (BenchmarkDotNet starts a process per case; a
/// million documents take about a minute to build and index), rebuilt whenever a build did not finish. The marker
/// file that says a build finished also records how long it took (<see cref="BuildTime"/>).
/// </summary>
internal static class ScaleDataset
{
    /// <summary>Carts in every size: the selective query's result is the same at every scale.</summary>
    public const int Carts = 1_000;

    /// <summary>Bump when the dataset's contents change, so stale folders are not reused.</summary>
    private const string Version = "v1";

    private const string CompleteMarker = "benchmark-dataset-complete";

    /// <summary>The folder of the dataset of <paramref name="documents"/> documents (it may not exist yet).</summary>
    public static string Folder(int documents) => Path.Combine(BenchmarkFolders.Root, "datasets", $"scale-{documents}-{Version}");

    /// <summary>
    /// Opens the dataset of <paramref name="documents"/> documents, building it first if needed, with the document
    /// cache at <paramref name="cacheSizeMb"/> MiB (null: the default).
    /// </summary>
    public static DocumentDatabase Open(int documents, long? cacheSizeMb = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(documents, Carts);
        var directory = Folder(documents);
        var marker = Path.Combine(directory, CompleteMarker);
        if (!File.Exists(marker))
        {
            BenchmarkFolders.Delete(directory);
            var clock = Stopwatch.StartNew();
            using (var building = OpenAt(directory, cacheSizeMb: null))
                SeedDataset.Load(building, Carts, documents - Carts);
            // Seconds on the marker's second line: the --scale report shows them on later runs too.
            File.WriteAllText(marker, string.Create(CultureInfo.InvariantCulture,
                $"{documents} documents\n{clock.Elapsed.TotalSeconds:F1} s to build and index\n"));
        }
        var database = OpenAt(directory, cacheSizeMb);
        SeedDataset.WaitForIndex(database, Carts);
        return database;
    }

    /// <summary>How long the finished dataset took to build and index, if it was built by a version that recorded it.</summary>
    public static TimeSpan? BuildTime(int documents)
    {
        var marker = Path.Combine(Folder(documents), CompleteMarker);
        if (!File.Exists(marker))
            return null;
        var lines = File.ReadAllLines(marker);
        return lines.Length > 1 && double.TryParse(lines[1].Split(' ')[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds)
            ? TimeSpan.FromSeconds(seconds)
            : null;
    }

    private static DocumentDatabase OpenAt(string directory, long? cacheSizeMb) =>
        new(new DocumentDatabaseOptions { DataDirectory = directory, CacheSizeMb = cacheSizeMb });
}
