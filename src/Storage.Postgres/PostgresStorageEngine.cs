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
        using (var create = new NpgsqlCommand(PostgresSchema.Create, connection, transaction))
            create.ExecuteNonQuery();
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

    public StorageTable OpenTable(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        lock (_tablesLock)
        {
            ThrowIfDisposed();
            if (_tables.TryGetValue(name, out var table))
                return table;
            using var connection = _dataSource.OpenConnection();
            using (var add = new NpgsqlCommand(PostgresSchema.AddTable, connection))
            {
                add.Parameters.AddWithValue(name);
                add.ExecuteNonQuery();
            }
            using var read = new NpgsqlCommand(PostgresSchema.TableId, connection);
            read.Parameters.AddWithValue(name);
            table = new StorageTable(name, (int)read.ExecuteScalar()!);
            _tables.Add(name, table);
            return table;
        }
    }

    public IReadTransaction BeginRead()
    {
        ThrowIfDisposed();
        return PostgresReadTransaction.Begin(this);
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
