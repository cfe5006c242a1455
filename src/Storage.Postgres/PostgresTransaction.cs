using System.Data;
using Npgsql;
using NpgsqlTypes;

namespace RavenLite.Storage.Postgres;

/// <summary>A transaction on a connection of its own: point reads and the ordered pages cursors walk.</summary>
internal abstract class PostgresTransaction(NpgsqlConnection connection, NpgsqlTransaction transaction) : IReadTransaction
{
    private int _disposed;

    protected NpgsqlConnection Connection { get; } = connection;

    protected NpgsqlTransaction Transaction { get; } = transaction;

    public virtual bool TryGet(StorageTable table, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        ThrowIfDisposed();
        using var command = Command(PostgresSchema.Get);
        command.Parameters.Add(TableParameter(table.Id));
        command.Parameters.Add(BytesParameter(key.ToArray()));
        try
        {
            using var reader = command.ExecuteReader(CommandBehavior.SingleRow);
            if (!reader.Read())
            {
                value = default;
                return false;
            }
            value = reader.GetFieldValue<byte[]>(0);
            return true;
        }
        catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
        {
            throw PostgresFailures.Translate(ex, outcomeUnknown: false);
        }
    }

    public IStorageCursor OpenCursor(StorageTable table)
    {
        ThrowIfDisposed();
        return new PostgresCursor(this, table.Id);
    }

    /// <summary>Runs one of the cursor queries of <see cref="PostgresSchema"/>: rows of (k, v) in the order it asks.</summary>
    internal List<PostgresRow> Fetch(string sql, int tableId, byte[]? key, int limit)
    {
        ThrowIfDisposed();
        BeforeRead();
        using var command = Command(sql);
        command.Parameters.Add(TableParameter(tableId));
        if (key is not null)
            command.Parameters.Add(BytesParameter(key));
        command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = limit });
        var rows = new List<PostgresRow>(limit);
        try
        {
            using var reader = command.ExecuteReader();
            while (reader.Read())
                rows.Add(new PostgresRow(reader.GetFieldValue<byte[]>(0), reader.GetFieldValue<byte[]>(1)));
        }
        catch (Exception ex) when (PostgresFailures.IsUnavailable(ex))
        {
            throw PostgresFailures.Translate(ex, outcomeUnknown: false);
        }
        return rows;
    }

    /// <summary>Runs before a cursor query: the write transaction sends the puts it holds back, so the query sees them.</summary>
    protected virtual void BeforeRead()
    {
    }

    protected NpgsqlCommand Command(string sql) => new(sql, Connection, Transaction);

    protected static NpgsqlParameter<int> TableParameter(int tableId) => new() { TypedValue = tableId };

    protected static NpgsqlParameter<byte[]> BytesParameter(byte[] bytes) =>
        new() { NpgsqlDbType = NpgsqlDbType.Bytea, TypedValue = bytes };

    protected void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);

    /// <summary>Ends the transaction (rolling back what was not committed) and returns the connection to the pool.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            Transaction.Dispose();
        }
        finally
        {
            Connection.Dispose();
        }
    }
}

/// <summary>One entry as a cursor holds it.</summary>
internal readonly record struct PostgresRow(byte[] Key, byte[] Value);
