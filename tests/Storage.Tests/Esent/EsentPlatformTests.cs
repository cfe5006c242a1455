using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Esent;

public sealed class EsentPlatformTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Selecting_Esent_off_Windows_fails_at_open_with_PlatformNotSupportedException()
    {
        if (OperatingSystem.IsWindows())
        {
            // On Windows the engine opens; the conformance theories exercise it.
            using var store = StoreFactory.Open(StorageEngineKind.Esent, _dir.Path);
            Assert.Equal(StorageEngineKind.Esent, store.Engine.Kind);
            return;
        }

        var ex = Assert.Throws<PlatformNotSupportedException>(() => StoreFactory.Open(StorageEngineKind.Esent, _dir.Path));
        Assert.Contains("ESENT requires Windows", ex.Message, StringComparison.Ordinal);
        // The failed open released the folder and left no esent folder behind: LMDB can open it now.
        Assert.False(Directory.Exists(Path.Combine(_dir.Path, StorageEngineFactory.EngineFolder(StorageEngineKind.Esent))));
        using var lmdb = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.Equal(0, lmdb.GetCounts().Documents);
    }
}
