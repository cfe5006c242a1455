namespace RavenLite.Storage;

/// <summary>
/// Opens one kind of storage engine. An engine that lives in its own assembly (ESENT, PostgreSQL) declares
/// its provider with <see cref="StorageEngineProviderAttribute"/>; <c>StorageEngineFactory</c> loads
/// that assembly by name when the engine is asked for.
/// </summary>
public interface IStorageEngineProvider
{
    /// <summary>The engine this provider opens.</summary>
    StorageEngineKind Kind { get; }

    /// <summary>
    /// Opens (creating when missing) the engine. <paramref name="folder"/> is the engine's own sub-folder of the
    /// data directory, already created; <paramref name="options"/> are validated.
    /// </summary>
    IStorageEngine Open(string folder, StorageOptions options);
}
