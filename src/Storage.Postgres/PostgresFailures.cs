using Npgsql;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// Which PostgreSQL failures mean "the server is not there (or not writable) right now" rather than a fault of
/// RavenLite's, and their translation to <see cref="StorageUnavailableException"/>.
/// </summary>
internal static class PostgresFailures
{
    /// <summary>SQLSTATE 25006: a write sent to a hot standby.</summary>
    private const string ReadOnlyTransaction = "25006";

    /// <summary>
    /// True for a lost or refused connection: an I/O error, no host that fits the connection string (no primary during a
    /// failover), or a server shutting down, crashed, starting, or in recovery (SQLSTATE classes 08 and 57P).
    /// </summary>
    public static bool IsUnavailable(Exception exception) => exception switch
    {
        PostgresException postgres => postgres.SqlState == ReadOnlyTransaction
            || postgres.SqlState.StartsWith("08", StringComparison.Ordinal)
            || postgres.SqlState.StartsWith("57P", StringComparison.Ordinal),
        NpgsqlException => true,
        _ => false,
    };

    /// <summary>True for a write refused by a hot standby: the connection is fine, and retrying on it will not help.</summary>
    public static bool IsReadOnly(Exception exception) => exception is PostgresException { SqlState: ReadOnlyTransaction };

    /// <summary>The exception to throw for <paramref name="exception"/> (one <see cref="IsUnavailable"/> accepts).</summary>
    public static StorageUnavailableException Translate(Exception exception, bool outcomeUnknown)
    {
        if (IsReadOnly(exception))
            return new StorageUnavailableException(
                "The PostgreSQL server this database reads is a read-only standby: it serves reads, not writes.",
                readOnly: true, outcomeUnknown: false, exception);
        var message = outcomeUnknown
            ? "The connection to PostgreSQL was lost while a commit was on its way: the write may or may not have been stored. Retry it with the expected etag it was first sent with."
            : "PostgreSQL cannot be reached (restarting, or failing over to its standby); retry shortly. Nothing of this transaction was stored.";
        return new StorageUnavailableException(message, readOnly: false, outcomeUnknown, exception);
    }
}
