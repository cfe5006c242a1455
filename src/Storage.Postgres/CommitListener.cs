using Npgsql;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// LISTENs for other instances' commit notifications on a connection of its own and raises
/// <see cref="PostgresStorageEngine.CommittedElsewhere"/>; also raises it when it has not for <see cref="PollInterval"/>,
/// because a notification sent while the connection was down is lost, and other schemas' notifications on the same
/// channel must not hold that poll off. On a hot standby, where LISTEN is refused and
/// notifications never arrive (they are not replicated), it only polls, until the standby is promoted.
/// </summary>
internal sealed class CommitListener : IDisposable
{
    internal static readonly TimeSpan PollInterval = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan RetryDelay = TimeSpan.FromSeconds(1);

    private readonly PostgresStorageEngine _engine;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _loop;

    public CommitListener(PostgresStorageEngine engine)
    {
        _engine = engine;
        _loop = Task.Run(() => RunAsync(_stop.Token));
    }

    private async Task RunAsync(CancellationToken stop)
    {
        var own = _engine.Schema + ":" + _engine.InstanceId;
        var prefix = _engine.Schema + ":";
        while (!stop.IsCancellationRequested)
        {
            try
            {
                await using var connection = await _engine.DataSource.OpenConnectionAsync(stop).ConfigureAwait(false);
                if (await InRecoveryAsync(connection, stop).ConfigureAwait(false))
                {
                    _engine.RaiseCommittedElsewhere();
                    await Task.Delay(PollInterval, stop).ConfigureAwait(false);
                    continue;
                }
                var lastRaised = 0L;
                void Raise()
                {
                    lastRaised = TimeProvider.System.GetTimestamp();
                    _engine.RaiseCommittedElsewhere();
                }
                connection.Notification += (_, e) =>
                {
                    if (e.Payload.StartsWith(prefix, StringComparison.Ordinal) && e.Payload != own)
                        Raise();
                };
                await using (var listen = new NpgsqlCommand($"LISTEN {PostgresSchema.CommitChannel}", connection))
                    await listen.ExecuteNonQueryAsync(stop).ConfigureAwait(false);
                Raise(); // whatever was committed while this connection was not listening
                while (!stop.IsCancellationRequested)
                {
                    // The poll counts from the last raise, not from the last notification: the channel also carries the
                    // commits of every other schema in this PostgreSQL database, and a busy neighbour would otherwise
                    // wake every wait and stop the poll for good, so a notification of ours the wake-up's handler
                    // passes over (an index definition synced at most once a second) was never followed up.
                    var left = PollInterval - TimeProvider.System.GetElapsedTime(lastRaised);
                    if (left > TimeSpan.Zero)
                        await connection.WaitAsync(WholeMilliseconds(left), stop).ConfigureAwait(false);
                    if (TimeProvider.System.GetElapsedTime(lastRaised) >= PollInterval)
                        Raise();
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
#pragma warning disable CA1031 // a lost connection is retried; the poll covers what it missed
            catch (Exception)
#pragma warning restore CA1031
            {
                try
                {
                    await Task.Delay(RetryDelay, stop).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    /// <summary><paramref name="wait"/> rounded up to a whole millisecond: Npgsql waits for ever on a timeout of 0 ms.</summary>
    private static TimeSpan WholeMilliseconds(TimeSpan wait) => TimeSpan.FromMilliseconds(Math.Max(1, Math.Ceiling(wait.TotalMilliseconds)));

    private static async Task<bool> InRecoveryAsync(NpgsqlConnection connection, CancellationToken stop)
    {
        await using var command = new NpgsqlCommand(PostgresSchema.InRecovery, connection);
        return (bool)(await command.ExecuteScalarAsync(stop).ConfigureAwait(false))!;
    }

    public void Dispose()
    {
        if (_stop.IsCancellationRequested)
            return;
        _stop.Cancel();
        try
        {
            _loop.GetAwaiter().GetResult();
        }
        finally
        {
            _stop.Dispose();
        }
    }
}
