using RavenLite.Storage.Esent;
using RavenLite.Storage.Lmdb;

namespace RavenLite.Storage;

/// <summary>Opens the engine that <see cref="StorageOptions.Engine"/> names.</summary>
internal static class StorageEngineFactory
{
    /// <summary>The sub-folder of the data directory each engine keeps its files in.</summary>
    public static string EngineFolder(StorageEngineKind kind) => kind switch
    {
        StorageEngineKind.Lmdb => "lmdb",
        StorageEngineKind.Esent => "esent",
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown storage engine."),
    };

    /// <summary>
    /// Opens (creating when missing) the engine's files under <see cref="StorageOptions.DataDirectory"/>.
    /// </summary>
    /// <exception cref="PlatformNotSupportedException">ESENT was asked for off Windows.</exception>
    /// <exception cref="InvalidOperationException">The folder holds a database of the other engine.</exception>
    public static IStorageEngine Open(StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();

        if (options.Engine == StorageEngineKind.Esent && !OperatingSystem.IsWindows())
            throw new PlatformNotSupportedException(
                "ESENT requires Windows (esent.dll); use Engine = Lmdb on this operating system.");

        var root = Path.GetFullPath(options.DataDirectory);
        foreach (var other in Enum.GetValues<StorageEngineKind>())
        {
            if (other != options.Engine && Directory.Exists(Path.Combine(root, EngineFolder(other)))
                && !Directory.Exists(Path.Combine(root, EngineFolder(options.Engine))))
                throw new InvalidOperationException(
                    $"The folder '{root}' holds a {other} database; open it with Engine = {other}.");
        }

        var folder = Path.Combine(root, EngineFolder(options.Engine));
        Directory.CreateDirectory(folder);
        return options.Engine switch
        {
            StorageEngineKind.Lmdb => new LmdbStorageEngine(folder, options.MapSize),
            _ => OpenEsent(folder),
        };
    }

    private static EsentStorageEngine OpenEsent(string folder)
    {
        // Checked above; repeated so the platform analyzer sees the guard.
        if (!OperatingSystem.IsWindows())
            throw new PlatformNotSupportedException("ESENT requires Windows.");
        return new EsentStorageEngine(folder);
    }
}
