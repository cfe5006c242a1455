using Npgsql;

namespace RavenLite.Storage.Postgres;

/// <summary>
/// The PostgreSQL engine: every table's entries in one PostgreSQL table ordered by (table, key), read in
/// REPEATABLE READ snapshots, written in READ COMMITTED transactions that first take the database's writer lock, so
/// that several engine instances (several RavenLite servers) can share one database and still give out etags in
/// commit order. Commits are announced with NOTIFY; <see cref="CommittedElsewhere"/> reports other instances' commits.
/// </summary>
/// <remarks>
/// Synchronous Npgsql calls, as the contract is synchronous and a write transaction stays on its caller's thread.
/// The connection string is handed to Npgsql only, never put in a message (it may hold a password).
/// </remarks>
internal sealed partial class PostgresStorageEngine : ISharedStorageEngine
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly object _writeLock = new();
    private readonly object _tablesLock = new();
    private readonly Dictionary<string, StorageTable> _tables = new(StringComparer.Ordinal);
    private int _disposed;

    public PostgresStorageEngine(string connectionString)
    {
        var builder = new NpgsqlDataSourceBuilder(connectionString);
        var settings = builder.ConnectionStringBuilder;
        // Session state is never changed outside a transaction (SET LOCAL only), so a pooled connection needs no reset,
        // and statements stay prepared across uses.
        settings.NoResetOnClose = true;
        if (settings.MaxAutoPrepare == 0)
            settings.MaxAutoPrepare = 32;
        settings.ApplicationName ??= "RavenLite";
        // With several hosts (a primary and its standbys), Npgsql remembers each host's role for HostRecheckSeconds
        // (10 s by default): a standby seen during a failover would be taken for one that long after its promotion.
        if (settings.Host?.Contains(',', StringComparison.Ordinal) == true && !Mentions(connectionString, "Host Recheck Seconds", "HostRecheckSeconds"))
            settings.HostRecheckSeconds = 1;
        _dataSource = builder.Build();
        try
        {
            Schema = CreateSchema();
            _listener = new CommitListener(this);
        }
        catch
        {
            _dataSource.Dispose();
            throw;
        }
    }

    public StorageEngineKind Kind => StorageEngineKind.Postgres;

    /// <summary>The schema the tables live in; the payload of this database's commit notifications.</summary>
    internal string Schema { get; }

    /// <summary>This instance's own mark in its notifications, so it does not wake itself.</summary>
    internal string InstanceId { get; } = Guid.NewGuid().ToString("N");

    internal NpgsqlDataSource DataSource => _dataSource;

    private string CreateSchema()
    {
        using var connection = _dataSource.OpenConnection();
        using var transaction = connection.BeginTransaction();
        // A hot standby cannot create anything: it reads the tables its primary made (and refuses writes with 25006).
        bool standby;
        using (var recovery = new NpgsqlCommand(PostgresSchema.InRecovery, connection, transaction))
            standby = (bool)recovery.ExecuteScalar()!;
        if (!standby)
        {
            using var create = new NpgsqlCommand(PostgresSchema.Create, connection, transaction);
            create.ExecuteNonQuery();
        }
        else
        {
            using var exists = new NpgsqlCommand(PostgresSchema.TablesExist, connection, transaction);
            if (!(bool)exists.ExecuteScalar()!)
                throw new InvalidOperationException(
                    "The PostgreSQL server is a read-only standby and its schema has no RavenLite tables yet: open the database on the primary first.");
        }
        using var read = new NpgsqlCommand(PostgresSchema.VersionAndSchema, connection, transaction);
        using var reader = read.ExecuteReader();
        reader.Read();
        var (version, schema) = (reader.GetInt64(0), reader.GetString(1));
        reader.Close();
        if (version != PostgresSchema.Version)
            throw new StorageCorruptedException(
                $"The PostgreSQL schema '{schema}' has RavenLite engine version {version}; this RavenLite reads version {PostgresSchema.Version}.");
        transaction.Commit();
        return schema;
    }

    public ReplicationStatus GetReplicationStatus()
    {
        ThrowIfDisposed();
        return WithFreshConnectionOnFailure(() =>
        {
            using var connection = _dataSource.OpenConnection();
            using var command = new NpgsqlCommand(PostgresSchema.Replication, connection);
            using var reader = command.ExecuteReader();
            reader.Read();
            if (!reader.GetBoolean(0))
                return new ReplicationStatus(IsStandby: false, Lag: null, LastReplayedCommitAt: null);
            DateTimeOffset? replayed = reader.IsDBNull(1) ? null : reader.GetFieldValue<DateTimeOffset>(1);
            var lag = reader.IsDBNull(2) ? TimeSpan.Zero : reader.GetFieldValue<TimeSpan>(2);
            return new ReplicationStatus(IsStandby: true, lag, replayed);
        });
    }

    public StorageTable OpenTable(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        lock (_tablesLock)
        {
            ThrowIfDisposed();
            if (_tables.TryGetValue(name, out var table))
                return table;
            using var connection = _dataSource.OpenConnection();
            // Read first: a standby can read the tables its primary added, not add one.
            var id = ReadTableId(connection, name);
            if (id is null)
            {
                using (var add = new NpgsqlCommand(PostgresSchema.AddTable, connection))
                {
                    add.Parameters.AddWithValue(name);
                    add.ExecuteNonQuery();
                }
                id = ReadTableId(connection, name);
            }
            table = new StorageTable(name, id!.Value);
            _tables.Add(name, table);
            return table;
        }
    }

    private static int? ReadTableId(NpgsqlConnection connection, string name)
    {
        using var read = new NpgsqlCommand(PostgresSchema.TableId, connection);
        read.Parameters.AddWithValue(name);
        return read.ExecuteScalar() as int?;
    }

    public IReadTransaction BeginRead()
    {
        ThrowIfDisposed();
        return WithFreshConnectionOnFailure(() => PostgresReadTransaction.Begin(this));
    }

    /// <summary>
    /// Begins a transaction (or runs a read that may be repeated); when its connection turns out to be dead (pooled
    /// connections to a server that restarted or failed over are, and are only found out on use), drops every idle
    /// connection and tries once more on a new one. Nothing was written yet, so the retry cannot repeat anything. A
    /// second failure, or a standby's refusal, is a <see cref="StorageUnavailableException"/>.
    /// </summary>
    internal T WithFreshConnectionOnFailure<T>(Func<T> begin)
    {
        try
        {
            return begin();
        }
        catch (Exception first) when (PostgresFailures.IsUnavailable(first) && !PostgresFailures.IsReadOnly(first))
        {
            _dataSource.Clear();
            try
            {
                return begin();
            }
            catch (Exception second) when (PostgresFailures.IsUnavailable(second))
            {
                throw Failed(second, outcomeUnknown: false);
            }
        }
        catch (Exception refused) when (PostgresFailures.IsReadOnly(refused))
        {
            throw Failed(refused, outcomeUnknown: false);
        }
    }

    /// <summary>
    /// The exception for a failure <see cref="PostgresFailures.IsUnavailable"/> accepts. A lost connection also drops the
    /// pool's idle connections: each of them would fail once on its next use.
    /// </summary>
    internal StorageUnavailableException Failed(Exception exception, bool outcomeUnknown)
    {
        if (!PostgresFailures.IsReadOnly(exception))
            _dataSource.Clear();
        return PostgresFailures.Translate(exception, outcomeUnknown);
    }

    private static bool Mentions(string connectionString, params string[] keywords)
    {
        var given = new System.Data.Common.DbConnectionStringBuilder { ConnectionString = connectionString };
        return keywords.Any(given.ContainsKey);
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        try
        {
            _listener.Dispose();
        }
        finally
        {
            // Waits for a write in progress, so its connection is back in the pool before the pool closes.
            lock (_writeLock)
                _dataSource.Dispose();
        }
    }
}
