using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

public sealed class ChangeNotificationTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Every_committed_write_raises_DocumentsChanged_with_the_new_last_etag()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        var seen = new List<long>();
        store.DocumentsChanged += seen.Add;

        var put = store.Put("a", Json("{}"));
        store.Batch([BatchCommand.Put("b", Json("{}")), BatchCommand.Delete("a")]);
        store.Delete("never-was");
        Assert.Throws<ConcurrencyException>(() => store.Put("b", Json("{}"), expectedEtag: 99));

        Assert.Equal([put.Etag, put.Etag + 2], seen);
        Assert.Equal(put.Etag + 2, store.LastEtag);
        Assert.Equal(store.GetCounts().LastEtag, store.LastEtag);
    }

    [Fact]
    public void LastEtag_is_read_from_disk_after_reopen_and_a_throwing_listener_does_not_fail_the_write()
    {
        using (var store = Open(StorageEngineKind.Lmdb, _dir.Path))
        {
            store.DocumentsChanged += _ => throw new InvalidOperationException("listener bug");
            store.Put("a", Json("{}"));
            store.Put("b", Json("{}"));
        }
        using var reopened = Open(StorageEngineKind.Lmdb, _dir.Path);
        Assert.Equal(2, reopened.LastEtag);
    }
}
