using Newtonsoft.Json.Linq;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Lmdb;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

/// <summary>
/// Writes that arrive while another commits are committed together in the next transaction; each caller keeps its
/// own results and errors.
/// </summary>
public sealed class GroupCommitTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Writes_queued_behind_a_commit_share_the_next_transaction_and_a_stale_etag_fails_only_its_own_caller()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        var lmdb = (LmdbStorageEngine)store.Engine;
        var staleTarget = store.Put("docs/stale", Json("""{"v":1}"""));
        store.Put("docs/patched", Json("""{"n":1}"""));
        using var entered = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();

        // The leader's commit is held inside its transaction until the three others have queued behind it.
        var leader = Task.Run(() => store.Patch("docs/patched", new HeldPatch(entered, release)));
        Assert.True(entered.Wait(Patience), "the patch never ran");
        var before = lmdb.LastTransactionId;
        var stale = Task.Run(() => store.Put("docs/stale", Json("""{"v":2}"""), expectedEtag: staleTarget.Etag + 1000));
        var first = Task.Run(() => store.Put("docs/a", Json("{}")));
        var second = Task.Run(() => store.Batch([BatchCommand.Put("docs/b", Json("{}")), BatchCommand.Put("docs/c", Json("{}"))]));
        Assert.True(SpinWait.SpinUntil(() => store.QueuedWrites == 3, Patience), "the writes never queued");
        release.Set();

        var patched = await leader.WaitAsync(Patience);
        var a = await first.WaitAsync(Patience);
        var bc = await second.WaitAsync(Patience);
        await Assert.ThrowsAsync<ConcurrencyException>(() => stale.WaitAsync(Patience));

        // One commit for the patch, one for both queued writers; the stale put's attempt was rolled back.
        Assert.Equal(before + 2, lmdb.LastTransactionId);
        var etags = new[] { a.Etag }.Concat(bc.Select(r => r.Etag!.Value)).Order().ToArray();
        Assert.Equal(3, etags.Distinct().Count());
        Assert.Equal(patched!.Value + 3, etags[^1]);
        Assert.Equal(staleTarget.Etag, store.Get("docs/stale")!.Etag);
        Assert.NotNull(store.Get("docs/a"));
        Assert.NotNull(store.Get("docs/c"));
        Assert.Equal(4 + 1, store.GetCounts().Documents);
        Assert.Equal(etags[^1], store.LastEtag);
    }

    [EngineTheory]
    public void Concurrent_writers_each_get_their_own_result_and_a_stale_etag_fails_only_its_write(StorageEngineKind engine)
    {
        using var store = Open(engine, _dir.Path);
        const int writers = 8, writes = 20;
        var taken = store.Put("docs/taken", Json("{}"));
        var results = new PutResult[writers * writes];
        var refused = 0;
        var threads = Enumerable.Range(0, writers).Select(w => new Thread(() =>
        {
            for (var i = 0; i < writes; i++)
            {
                results[w * writes + i] = store.Put($"docs/{w}/{i}", Json($$"""{"w":{{w}},"i":{{i}}}"""));
                // Every writer also tries a put the store must refuse, interleaved with the others' good writes.
                try
                {
                    store.Put("docs/taken", Json("""{"lost":true}"""), expectedEtag: 0);
                }
                catch (ConcurrencyException)
                {
                    Interlocked.Increment(ref refused);
                }
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => Assert.True(t.Join(TimeSpan.FromMinutes(2))));

        Assert.Equal(writers * writes, refused);
        Assert.Equal(writers * writes, results.Select(r => r.Etag).Distinct().Count());
        for (var w = 0; w < writers; w++)
        {
            for (var i = 0; i < writes; i++)
            {
                var doc = store.Get($"docs/{w}/{i}");
                Assert.NotNull(doc);
                Assert.Equal(results[w * writes + i].Etag, doc.Etag);
            }
        }
        Assert.Equal(taken.Etag, store.Get("docs/taken")!.Etag);
        Assert.Equal(writers * writes + 1, store.GetCounts().Documents);
        Assert.Equal(results.Max(r => r.Etag), store.LastEtag);
    }

    /// <summary>Holds its transaction open, the first time it runs, until released.</summary>
    private sealed class HeldPatch(ManualResetEventSlim entered, ManualResetEventSlim release) : IDocumentPatch
    {
        public JObject Apply(string key, JObject data)
        {
            entered.Set();
            release.Wait(Patience);
            data["n"] = 2;
            return data;
        }
    }
}
