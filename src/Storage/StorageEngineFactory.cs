using System.Reflection;
using RavenLite.Storage.Lmdb;

namespace RavenLite.Storage;

/// <summary>
/// Opens the engine that <see cref="StorageOptions.Engine"/> names. LMDB is built in; every other engine lives
/// in its own assembly (package) and is loaded by name when asked for, through the
/// <see cref="IStorageEngineProvider"/> that assembly declares.
/// </summary>
internal static class StorageEngineFactory
{
    private sealed record KnownEngine(string Folder, string? AssemblyName);

    private static readonly Dictionary<StorageEngineKind, KnownEngine> Known = new()
    {
        [StorageEngineKind.Lmdb] = new("lmdb", null),
        [StorageEngineKind.Esent] = new("esent", "RavenLite.Storage.Esent"),
        // The documents live in the database; the folder keeps what is per server (the folder lock, indexes).
        [StorageEngineKind.Postgres] = new("postgres", "RavenLite.Storage.Postgres"),
    };

    /// <summary>The sub-folder of the data directory each engine keeps its files in.</summary>
    public static string EngineFolder(StorageEngineKind kind) =>
        Known.TryGetValue(kind, out var known)
            ? known.Folder
            : throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown storage engine.");

    /// <summary>
    /// Opens (creating when missing) the engine's files under <see cref="StorageOptions.DataDirectory"/>.
    /// </summary>
    /// <exception cref="PlatformNotSupportedException">ESENT was asked for off Windows.</exception>
    /// <exception cref="InvalidOperationException">The folder holds a database of another engine, or the engine's
    /// package is not referenced by the application.</exception>
    public static IStorageEngine Open(StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();

        var provider = Provider(options.Engine);
        var root = Path.GetFullPath(options.DataDirectory);
        foreach (var (other, known) in Known)
        {
            if (other != options.Engine && Directory.Exists(Path.Combine(root, known.Folder))
                && !Directory.Exists(Path.Combine(root, EngineFolder(options.Engine))))
                throw new InvalidOperationException(
                    $"The folder '{root}' holds a {other} database; open it with Engine = {other}.");
        }

        var folder = Path.Combine(root, EngineFolder(options.Engine));
        var created = !Directory.Exists(folder);
        Directory.CreateDirectory(folder);
        try
        {
            return provider?.Open(folder, options) ?? new LmdbStorageEngine(folder, options.MapSize);
        }
        catch
        {
            if (created)
                RemoveEmptyFolder(folder);
            throw;
        }
    }

    /// <summary>
    /// Removes the engine folder a failed open created, so that the data directory can still be opened with
    /// another engine.
    /// </summary>
    private static void RemoveEmptyFolder(string folder)
    {
        try
        {
            if (!Directory.EnumerateFileSystemEntries(folder).Any())
                Directory.Delete(folder);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    /// <summary>The provider of an engine in another assembly; null for LMDB, which is built in.</summary>
    private static IStorageEngineProvider? Provider(StorageEngineKind kind)
    {
        var assemblyName = Known[kind].AssemblyName;
        return assemblyName is null ? null : LoadProvider(kind, assemblyName);
    }

    /// <summary>Loads <paramref name="assemblyName"/> and makes the provider it declares for <paramref name="kind"/>.</summary>
    internal static IStorageEngineProvider LoadProvider(StorageEngineKind kind, string assemblyName)
    {
        Assembly assembly;
        try
        {
            assembly = Assembly.Load(new AssemblyName(assemblyName));
        }
        catch (FileNotFoundException ex)
        {
            throw new InvalidOperationException(
                $"Engine = {kind} needs the {assemblyName} package, which this application does not reference: " +
                $"add it (dotnet add package {assemblyName}).", ex);
        }
        var declared = assembly.GetCustomAttribute<StorageEngineProviderAttribute>()
            ?? throw new InvalidOperationException($"{assemblyName} declares no storage engine provider.");
        var provider = Activator.CreateInstance(declared.ProviderType, nonPublic: true) as IStorageEngineProvider
            ?? throw new InvalidOperationException($"{declared.ProviderType} is not an {nameof(IStorageEngineProvider)}.");
        if (provider.Kind != kind)
            throw new InvalidOperationException($"{assemblyName} provides {provider.Kind}, not {kind}.");
        return provider;
    }
}
