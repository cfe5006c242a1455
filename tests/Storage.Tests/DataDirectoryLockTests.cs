using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests;

public sealed class DataDirectoryLockTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_second_store_on_the_same_folder_gets_a_clear_error_until_the_first_closes()
    {
        var first = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        var ex = Assert.Throws<IOException>(() => StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path));
        Assert.Contains("already open", ex.Message, StringComparison.Ordinal);

        first.Dispose();
        using var second = StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.Equal(0, second.GetCounts().Documents);
    }

    [Fact]
    public void A_second_process_on_the_same_folder_gets_a_clear_error()
    {
        using var holder = ChildWriter.StartHolding(_dir.Path);
        var ex = Assert.Throws<IOException>(() => StoreFactory.Open(StorageEngineKind.Lmdb, _dir.Path));
        Assert.Contains("already open in another process", ex.Message, StringComparison.Ordinal);
    }
}
