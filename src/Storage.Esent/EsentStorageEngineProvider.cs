using RavenLite.Storage;
using RavenLite.Storage.Esent;

[assembly: StorageEngineProvider(typeof(EsentStorageEngineProvider))]

namespace RavenLite.Storage.Esent;

/// <summary>Opens <see cref="EsentStorageEngine"/> for <c>StorageEngineFactory</c>: on Windows only.</summary>
internal sealed class EsentStorageEngineProvider : IStorageEngineProvider
{
    public StorageEngineKind Kind => StorageEngineKind.Esent;

    public IStorageEngine Open(string folder, StorageOptions options)
    {
        if (!OperatingSystem.IsWindows())
            throw new PlatformNotSupportedException(
                "ESENT requires Windows (esent.dll); use Engine = Lmdb on this operating system.");
        return new EsentStorageEngine(folder);
    }
}
