using Npgsql;
using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Storage.Tests.Issues;

/// <summary>
/// A CI run once failed SharedPostgresServerTests: the second server never picked up an index defined through the
/// first within 15 s. Every server over one PostgreSQL database listens on one channel, whatever its schema, and the
/// listener's poll ran only after a second without any notification: with other tests' servers committing side by
/// side it never ran, and a notification of its own schema that the index store passed over (it reads the definitions
/// at most once a second) was never followed by another chance.
/// </summary>
public sealed class CommitListenerPollTests : IDisposable
{
    private readonly TempDirectory _folder = new();

    public void Dispose()
    {
        if (TestPostgres.SkipReason is null)
            TestPostgres.DropForDirectory(_folder.Path);
        _folder.Dispose();
    }

    [PostgresFact]
    public async Task Another_schemas_steady_notifications_do_not_hold_off_the_poll()
    {
        using var store = DocumentStore.Open(new StorageOptions
        {
            DataDirectory = _folder.Path,
            Engine = StorageEngineKind.Postgres,
            ConnectionString = TestPostgres.ForDirectory(_folder.Path),
        });
        var flooding = 0;
        var raisedWhileFlooding = 0;
        var polled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        store.CommittedElsewhere += () =>
        {
            // Two, so that at least one is a poll made while the notifications came (the first may be the listener's
            // own raise when it starts listening).
            if (Volatile.Read(ref flooding) == 1 && Interlocked.Increment(ref raisedWhileFlooding) == 2)
                polled.TrySetResult();
        };

        using var stop = new CancellationTokenSource();
        var flood = Task.Run(async () =>
        {
            await using var connection = new NpgsqlConnection(TestPostgres.ConnectionString);
            await connection.OpenAsync();
            while (!stop.IsCancellationRequested)
            {
                await using (var notify = new NpgsqlCommand("SELECT pg_notify('ravenlite_commit', 'another_schema:another_server')", connection))
                    await notify.ExecuteNonQueryAsync();
                Volatile.Write(ref flooding, 1);
                // Paces the flood so it costs the other tests' listeners little; any gap under the poll's second would do.
                await Task.Delay(20, stop.Token).ContinueWith(_ => { }, TaskScheduler.Default);
            }
        });

        try
        {
            // A bound for the failure only: the poll comes within about a second.
            await polled.Task.WaitAsync(TimeSpan.FromSeconds(20));
        }
        catch (TimeoutException)
        {
            Assert.Fail($"with another schema's notifications every 20 ms the listener raised {Volatile.Read(ref raisedWhileFlooding)} time(s) in 20 s: its poll was held off");
        }
        finally
        {
            await stop.CancelAsync();
            await flood;
        }
    }
}
