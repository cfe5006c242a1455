using System.Data;
using Npgsql;
using NpgsqlTypes;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// A REPEATABLE READ transaction: one snapshot for every read it makes, taken when it begins. What it read ahead (many
/// keys in one round trip) answers point reads from memory: the snapshot cannot change under it.
/// </summary>
internal sealed class PostgresReadTransaction : PostgresTransaction, IReadAheadTransaction
{
    private Dictionary<PostgresRowKey, byte[]?>? _readAhead;

    private PostgresReadTransaction(NpgsqlConnection connection, NpgsqlTransaction transaction)
        : base(connection, transaction)
    {
    }

    public static PostgresReadTransaction Begin(PostgresStorageEngine engine)
    {
        var connection = engine.DataSource.OpenConnection();
        try
        {
            var tx = new PostgresReadTransaction(connection, connection.BeginTransaction(IsolationLevel.RepeatableRead));
            // PostgreSQL takes the snapshot at the first statement, not at BEGIN: take it now, so the transaction
            // sees the store as it was when it began (BEGIN travels with this statement: one round trip).
            using var snapshot = tx.Command("SELECT 1");
            snapshot.ExecuteNonQuery();
            return tx;
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    public void ReadAhead(StorageTable table, IReadOnlyList<byte[]> keys)
    {
        ThrowIfDisposed();
        var found = _readAhead ??= [];
        foreach (var key in keys)
            found[new PostgresRowKey(table.Id, key)] = null;
        using var command = Command(PostgresSchema.GetMany);
        command.Parameters.Add(TableParameter(table.Id));
        command.Parameters.Add(new NpgsqlParameter<byte[][]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bytea, TypedValue = [.. keys] });
        try
        {
            using var reader = command.ExecuteReader();
            while (reader.Read())
                found[new PostgresRowKey(table.Id, reader.GetFieldValue<byte[]>(0))] = reader.GetFieldValue<byte[]>(1);
        }
        catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
        {
            throw PostgresFailures.Translate(ex, outcomeUnknown: false);
        }
    }

    public override bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        if (_readAhead is not null && _readAhead.TryGetValue(new PostgresRowKey(table.Id, key.ToArray()), out var ahead))
        {
            value = ahead;
            return ahead is not null;
        }
        return base.TryGet(table, key, out value);
    }
}
