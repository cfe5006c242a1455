using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Postgres;

/// <summary>Two document stores (two servers, each with its own cache) over one PostgreSQL database.</summary>
public sealed class SharedDatabaseTests : IDisposable
{
    private readonly TempDirectory _firstFolder = new();
    private readonly TempDirectory _secondFolder = new();
    private readonly DocumentStore? _first;
    private readonly DocumentStore? _second;

    public SharedDatabaseTests()
    {
        if (TestPostgres.SkipReason is not null)
            return;
        var database = TestPostgres.ForDirectory(_firstFolder.Path);
        _first = Open(_firstFolder, database);
        _second = Open(_secondFolder, database);
    }

    private DocumentStore First => _first!;

    private DocumentStore Second => _second!;

    public void Dispose()
    {
        _first?.Dispose();
        _second?.Dispose();
        _firstFolder.Dispose();
        _secondFolder.Dispose();
    }

    private static DocumentStore Open(TempDirectory folder, string connectionString) =>
        DocumentStore.Open(new StorageOptions
        {
            DataDirectory = folder.Path,
            Engine = StorageEngineKind.Postgres,
            ConnectionString = connectionString,
        });

    [PostgresFact]
    public void A_load_by_key_never_serves_the_cached_version_after_the_other_server_changed_it()
    {
        First.Put("carts/1", StoreFactory.Json("""{"v":1}"""));
        Assert.Equal(1, Second.Get("carts/1")!.Data.GetProperty("v").GetInt32()); // now cached on the second server
        Assert.Equal(1, Second.Get("carts/1")!.Data.GetProperty("v").GetInt32());

        var changed = First.Put("carts/1", StoreFactory.Json("""{"v":2}"""));

        var loaded = Second.Get("carts/1")!;
        Assert.Equal(changed.Etag, loaded.Etag);
        Assert.Equal(2, loaded.Data.GetProperty("v").GetInt32());
        First.Delete("carts/1");
        Assert.Null(Second.Get("carts/1"));
    }

    [PostgresFact]
    public void A_put_with_the_etag_the_other_server_replaced_throws_ConcurrencyException_and_writes_nothing()
    {
        var original = First.Put("carts/1", StoreFactory.Json("""{"v":1}"""));
        var seenBySecond = Second.Get("carts/1")!.Etag;
        var replaced = First.Put("carts/1", StoreFactory.Json("""{"v":2}"""), expectedEtag: original.Etag);

        var ex = Assert.Throws<ConcurrencyException>(() =>
            Second.Put("carts/1", StoreFactory.Json("""{"v":3}"""), expectedEtag: seenBySecond));
        Assert.Equal(replaced.Etag, ex.ActualEtag);
        Assert.Equal(2, First.Get("carts/1")!.Data.GetProperty("v").GetInt32());

        // "Must not exist yet" (expected etag 0) holds across servers too.
        First.Put("carts/new", StoreFactory.Json("{}"), expectedEtag: 0);
        Assert.Throws<ConcurrencyException>(() => Second.Put("carts/new", StoreFactory.Json("{}"), expectedEtag: 0));
    }

    [PostgresFact]
    public void A_commit_on_one_server_wakes_the_other_and_advances_its_last_etag()
    {
        _ = Second.LastEtag;
        using var woken = new SemaphoreSlim(0);
        long announced = 0;
        Second.DocumentsChanged += etag =>
        {
            Interlocked.Exchange(ref announced, etag);
            woken.Release();
        };

        var written = First.Put("carts/1", StoreFactory.Json("{}"));

        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (Interlocked.Read(ref announced) < written.Etag && DateTime.UtcNow < deadline)
            woken.Wait(TimeSpan.FromMilliseconds(100));
        Assert.Equal(written.Etag, Interlocked.Read(ref announced));
        Assert.Equal(written.Etag, Second.LastEtag);
    }

    [PostgresFact]
    public void ReadLastEtag_includes_the_other_servers_commits_at_once()
    {
        var written = First.Put("carts/1", StoreFactory.Json("{}"));
        Assert.Equal(written.Etag, Second.ReadLastEtag());
        Assert.Equal(written.Etag, Second.LastEtag);
    }
}
