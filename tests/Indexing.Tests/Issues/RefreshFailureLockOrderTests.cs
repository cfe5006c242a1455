using RavenLite.Indexing.Indexer;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Issues;

/// <summary>
/// A CI run of Server.Tests once sat idle until it was killed. A refresh that failed (on a full disk, say) recorded its
/// failure under the index's write lock while still holding the refresh lock, the reverse of the order everything else
/// takes them in: a reset, a retire or a rollback after the same full disk failed a batch holds the write lock and then
/// waits for the refresh lock. Both threads then waited for ever, and so did closing the database.
/// </summary>
public sealed class RefreshFailureLockOrderTests : IDisposable
{
    private static readonly TimeSpan s_bound = TimeSpan.FromSeconds(30);
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    [Fact]
    public async Task A_refresh_failing_while_a_reset_holds_the_write_lock_lets_the_reset_finish()
    {
        var definition = TestDefinitions.Simple("People/ByName");
        using var resetHoldsWriteLock = new ManualResetEventSlim();
        using var refreshing = new ManualResetEventSlim();
        var index = DocumentIndex.CreateEmpty(definition, new IndexingOptions
        {
            DataDirectory = Path.Combine(_db.Directory, "lock-order"),
            BeforeRefresh = _ =>
            {
                refreshing.Set();
                // Fails only once the reset holds the write lock, on its way to the refresh lock this refresh holds.
                Assert.True(resetHoldsWriteLock.Wait(s_bound), "the reset never began");
                throw new IOException("No space left on device");
            },
            BeforeResetCommit = _ => resetHoldsWriteLock.Set(),
        });
        _db.Documents.Put("people/1", Storage.Documents.DocumentContent.FromJson("""{"name": "Oren"}"""));
        using (var batch = IndexingBatch.Read(_db.Documents, 0, _db.Documents.LastEtag, 100, json: true))
            Assert.True(index.Apply(batch, DateTimeOffset.UtcNow));
        Assert.True(index.RefreshDue(now: true));

        var refresh = Task.Factory.StartNew(index.Refresh, TaskCreationOptions.LongRunning);
        Assert.True(refreshing.Wait(s_bound), "the refresh never began");
        var reset = Task.Factory.StartNew(() => index.Reset(definition), TaskCreationOptions.LongRunning);

        // A bound for the failure only (a deadlock never ends); both finish at once when the locks are taken in order.
        // On a deadlock the index is left undisposed: disposing it would wait for the refresh lock too.
        try
        {
            await Task.WhenAll(refresh, reset).WaitAsync(s_bound);
        }
        catch (TimeoutException)
        {
            Assert.Fail("the failed refresh and the reset deadlocked");
        }
        Assert.False(await refresh);
        using var replacement = await reset;
        Assert.True(index.IsRetired);
        Assert.Equal(0, replacement.LastIndexedEtag);
        index.Dispose();
    }
}
