using Npgsql;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// LISTENs for other instances' commit notifications on a connection of its own and raises
/// <see cref="PostgresStorageEngine.CommittedElsewhere"/>; also raises it every <see cref="PollInterval"/> without one,
/// because a notification sent while the connection was down is lost. On a hot standby, where LISTEN is refused and
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
                connection.Notification += (_, e) =>
                {
                    if (e.Payload.StartsWith(prefix, StringComparison.Ordinal) && e.Payload != own)
                        _engine.RaiseCommittedElsewhere();
                };
                await using (var listen = new NpgsqlCommand($"LISTEN {PostgresSchema.CommitChannel}", connection))
                    await listen.ExecuteNonQueryAsync(stop).ConfigureAwait(false);
                _engine.RaiseCommittedElsewhere(); // whatever was committed while this connection was not listening
                while (!stop.IsCancellationRequested)
                {
                    if (!await connection.WaitAsync(PollInterval, stop).ConfigureAwait(false))
                        _engine.RaiseCommittedElsewhere();
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
