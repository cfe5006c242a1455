using System.Data;

namespace RavenLite.Storage.Postgres;

/// <summary>A REPEATABLE READ transaction: one snapshot for every read it makes, taken when it begins.</summary>
internal sealed class PostgresReadTransaction : PostgresTransaction
{
    private PostgresReadTransaction(Npgsql.NpgsqlConnection connection, Npgsql.NpgsqlTransaction transaction)
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
}
