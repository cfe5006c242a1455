using System.Data;
using Npgsql;
using NpgsqlTypes;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// The write transaction: READ COMMITTED, holding the database's writer lock from its first statement to its end.
/// Puts are held in memory and sent together (one statement) before the next range read and at commit, so a batch
/// of puts costs one round trip; point reads look at the held puts first, so the transaction sees its own writes.
/// </summary>
internal sealed class PostgresWriteTransaction : PostgresTransaction, IWriteTransaction
{
    /// <summary>
    /// A writer that stops talking to PostgreSQL for this long inside its transaction (a hung or partitioned server)
    /// loses its session, and with it the writer lock, so the other servers can write again.
    /// </summary>
    private const string IdleTimeout = "60s";

    private readonly PostgresStorageEngine _engine;
    private readonly Dictionary<PostgresRowKey, byte[]> _puts = [];
    private bool _wrote;

    private PostgresWriteTransaction(PostgresStorageEngine engine, NpgsqlConnection connection, NpgsqlTransaction transaction)
        : base(connection, transaction) => _engine = engine;

    /// <summary>Begins the transaction and waits for the writer lock (other servers' writers finish first).</summary>
    public static PostgresWriteTransaction Begin(PostgresStorageEngine engine, CommitMode mode)
    {
        var connection = engine.DataSource.OpenConnection();
        try
        {
            var tx = new PostgresWriteTransaction(engine, connection, connection.BeginTransaction(IsolationLevel.ReadCommitted));
            // Lazy: the commit returns before its WAL record is flushed; a crash may lose it, never half of it.
            var synchronous = mode == CommitMode.Lazy ? "off" : "on";
            using var begin = tx.Command(
                $"SET LOCAL synchronous_commit = {synchronous}; SET LOCAL idle_in_transaction_session_timeout = '{IdleTimeout}'; "
                + PostgresSchema.TakeWriterLock);
            begin.ExecuteNonQuery();
            return tx;
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    public override bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        ThrowIfDisposed();
        if (_puts.TryGetValue(new PostgresRowKey(table.Id, key.ToArray()), out var held))
        {
            value = held;
            return true;
        }
        return base.TryGet(table, key, out value);
    }

    public void Put(StorageTable table, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        ThrowIfDisposed();
        _puts[new PostgresRowKey(table.Id, key.ToArray())] = value.ToArray();
        _wrote = true;
    }

    public bool Delete(StorageTable table, ReadOnlySpan<byte> key)
    {
        ThrowIfDisposed();
        var keyBytes = key.ToArray();
        var wasHeld = _puts.Remove(new PostgresRowKey(table.Id, keyBytes));
        using var command = Command(PostgresSchema.Delete);
        command.Parameters.Add(TableParameter(table.Id));
        command.Parameters.Add(BytesParameter(keyBytes));
        var deleted = command.ExecuteNonQuery() > 0;
        _wrote |= wasHeld || deleted;
        return wasHeld || deleted;
    }

    protected override void BeforeRead() => SendPuts();

    /// <summary>Sends the held puts, announces the commit to the other servers (NOTIFY is delivered at commit) and commits.</summary>
    public void Commit()
    {
        ThrowIfDisposed();
        try
        {
            SendPutsAndNotify();
        }
        catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
        {
            throw _engine.Failed(ex, outcomeUnknown: false);
        }
        try
        {
            Transaction.Commit();
        }
        catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
        {
            // COMMIT was sent and no answer came: PostgreSQL may have made it durable (and, with a synchronous
            // standby, replicated it) before the connection went.
            throw _engine.Failed(ex, outcomeUnknown: true);
        }
    }

    private void SendPutsAndNotify()
    {
        SendPuts();
        if (_wrote)
        {
            using var notify = Command(PostgresSchema.Notify);
            notify.Parameters.Add(new NpgsqlParameter<string> { TypedValue = _engine.Schema + ":" + _engine.InstanceId });
            notify.ExecuteNonQuery();
        }
    }

    private void SendPuts()
    {
        if (_puts.Count == 0)
            return;
        var tables = new int[_puts.Count];
        var keys = new byte[_puts.Count][];
        var values = new byte[_puts.Count][];
        var i = 0;
        foreach (var (key, value) in _puts)
        {
            tables[i] = key.TableId;
            keys[i] = key.Key;
            values[i++] = value;
        }
        using var command = Command(PostgresSchema.PutMany);
        command.Parameters.Add(new NpgsqlParameter<int[]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Integer, TypedValue = tables });
        command.Parameters.Add(new NpgsqlParameter<byte[][]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bytea, TypedValue = keys });
        command.Parameters.Add(new NpgsqlParameter<byte[][]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bytea, TypedValue = values });
        command.ExecuteNonQuery();
        _puts.Clear();
    }
}
