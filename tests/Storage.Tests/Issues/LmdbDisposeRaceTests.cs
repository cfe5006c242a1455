using System.Text;
using RavenLite.Storage.Lmdb;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// Issue 11: a reader that passed <c>BeginRead</c>'s disposed check could enter the gate after
/// <c>Dispose</c> had closed the environment and begin a transaction on a closed handle (a native crash).
/// </summary>
public sealed class LmdbDisposeRaceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Readers_held_at_the_gate_while_the_engine_is_disposed_get_ObjectDisposedException()
    {
        for (var round = 0; round < 5; round++)
            RunRound(Path.Combine(_dir.Path, $"round{round}"));
    }

    private static void RunRound(string folder)
    {
        Directory.CreateDirectory(folder);
        var engine = (LmdbStorageEngine)StorageEngineFactory.Open(new StorageOptions { DataDirectory = folder });
        var table = engine.OpenTable("t");
        engine.Write(tx => { tx.Put(table, "k"u8, "v"u8); return 0; });

        // A transaction stays open while another thread asks for the gate exclusively: new readers then wait
        // inside BeginRead, past its disposed check, and the disposer queues among them.
        engine.Gate.Enter();
        var exclusive = new Thread(() => engine.Gate.RunExclusive(() => { }, TimeSpan.FromMinutes(1)));
        exclusive.Start();
        WaitUntilBlocked([exclusive]);

        var outcomes = new Exception?[8];
        var readers = Enumerable.Range(0, outcomes.Length).Select(i => new Thread(() =>
        {
            try
            {
                using var read = engine.BeginRead();
                read.TryGet(table, "k"u8, out _);
            }
            catch (Exception ex)
            {
                outcomes[i] = ex;
            }
        })).ToArray();
        foreach (var reader in readers)
            reader.Start();
        WaitUntilBlocked(readers);
        var disposer = new Thread(engine.Dispose);
        disposer.Start();
        WaitUntilBlocked([disposer]);

        engine.Gate.Exit();
        exclusive.Join();
        disposer.Join();
        foreach (var reader in readers)
            reader.Join();

        // A reader that got in before the close read normally; every other one was told the engine is closed.
        Assert.All(outcomes, outcome => Assert.True(outcome is null or ObjectDisposedException, outcome?.ToString()));
        Assert.Throws<ObjectDisposedException>(() => engine.BeginRead());
    }

    private static void WaitUntilBlocked(Thread[] threads)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (!threads.All(t => (t.ThreadState & ThreadState.WaitSleepJoin) != 0))
        {
            Assert.True(DateTime.UtcNow < deadline, "threads never blocked");
            Thread.Sleep(5);
        }
    }
}
