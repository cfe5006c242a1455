using System.Diagnostics;
using System.Text;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using Xunit.Abstractions;

namespace RavenLite.Storage.Tests.Postgres;

/// <summary>
/// The PostgreSQL engine over a primary and its streaming standby: what a caller sees while no primary answers, after
/// a promotion, and on a hot standby.
/// </summary>
public sealed class StandbyAndFailoverTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _first = new();
    private readonly TempDirectory _second = new();

    public void Dispose()
    {
        _first.Dispose();
        _second.Dispose();
    }

    private static DocumentStore Open(TempDirectory folder, string connectionString) =>
        DocumentStore.Open(new StorageOptions
        {
            DataDirectory = folder.Path,
            Engine = StorageEngineKind.Postgres,
            ConnectionString = connectionString,
        });

    [PostgresPairFact]
    public void While_no_primary_answers_reads_and_writes_throw_StorageUnavailableException_and_writes_resume_after_the_promotion()
    {
        using var pair = TestPostgresPair.Start(synchronous: false);
        using var store = Open(_first, pair.FailoverConnectionString);
        store.Put("carts/1", StoreFactory.Json("""{"v":1}"""));
        pair.WaitForStandbyToCatchUp(TimeSpan.FromSeconds(30));

        pair.KillPrimary();
        var killed = Stopwatch.StartNew();

        var write = Assert.Throws<StorageUnavailableException>(() => store.Put("carts/2", StoreFactory.Json("""{"v":2}""")));
        Assert.False(write.ReadOnly);
        Assert.False(write.OutcomeUnknown); // the begin failed: nothing was sent
        Assert.Throws<StorageUnavailableException>(() => store.Get("carts/1"));
        var failedIn = killed.Elapsed;

        pair.Promote();
        var promoted = Stopwatch.StartNew();
        PutResult? put = null;
        while (put is null)
        {
            try
            {
                put = store.Put("carts/2", StoreFactory.Json("""{"v":2}"""), expectedEtag: 0);
            }
            catch (StorageUnavailableException) when (promoted.Elapsed < TimeSpan.FromSeconds(10))
            {
                Thread.Sleep(50); // a retry loop's pause; the assertion is the 10 s bound
            }
        }
        output.WriteLine($"a write and a read failed within {failedIn.TotalMilliseconds:F0} ms of the kill; writes resumed {promoted.Elapsed.TotalMilliseconds:F0} ms after the promotion");
        Assert.Equal(2, put.Value.Etag);
        Assert.Equal("""{"v":1}""", Encoding.UTF8.GetString(store.Get("carts/1")!.DataJson.Span));
    }

    [PostgresPairFact]
    public void A_store_on_a_hot_standby_reads_refuses_writes_as_read_only_and_reports_its_lag()
    {
        using var pair = TestPostgresPair.Start(synchronous: false);
        using var primary = Open(_first, pair.PrimaryConnectionString);
        primary.Put("carts/1", StoreFactory.Json("""{"v":1}"""));
        pair.WaitForStandbyToCatchUp(TimeSpan.FromSeconds(30));

        using var standby = Open(_second, pair.StandbyConnectionString);

        Assert.Equal("""{"v":1}""", Encoding.UTF8.GetString(standby.Get("carts/1")!.DataJson.Span));
        var refused = Assert.Throws<StorageUnavailableException>(() => standby.Put("carts/2", StoreFactory.Json("""{"v":2}""")));
        Assert.True(refused.ReadOnly);
        Assert.Contains("standby", refused.Message, StringComparison.Ordinal);
        Assert.Null(standby.Get("carts/2"));
        var status = standby.GetReplicationStatus()!;
        Assert.True(status.IsStandby);
        Assert.NotNull(status.Lag);
        Assert.NotNull(status.LastReplayedCommitAt);
        Assert.Equal(new ReplicationStatus(IsStandby: false, Lag: null, LastReplayedCommitAt: null), primary.GetReplicationStatus());
    }
}
