namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>Where benchmarks keep their databases: under the temp folder, in <c>ravenlite-bench</c>.</summary>
internal static class BenchmarkFolders
{
    /// <summary>The root every benchmark folder sits under.</summary>
    public static string Root { get; } = Path.Combine(Path.GetTempPath(), "ravenlite-bench");

    /// <summary>A new, unique folder path (not created).</summary>
    public static string NewTemp() => Path.Combine(Root, Guid.NewGuid().ToString("N"));

    /// <summary>Deletes a folder and everything in it, if it exists.</summary>
    public static void Delete(string directory)
    {
        if (Directory.Exists(directory))
            Directory.Delete(directory, recursive: true);
    }
}
