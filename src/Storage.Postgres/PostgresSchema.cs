namespace RavenLite.Storage.Postgres;

/// <summary>
/// The tables the engine keeps in the connection's current schema (the first of its <c>Search Path</c>), created on
/// first open and versioned.
/// </summary>
internal static class PostgresSchema
{
    /// <summary>The schema version this RavenLite reads and writes.</summary>
    public const long Version = 1;

    /// <summary>The channel every engine instance notifies on commit; the payload names the schema.</summary>
    public const string CommitChannel = "ravenlite_commit";

    /// <summary>Serializes concurrent first opens (CREATE TABLE IF NOT EXISTS races on the catalog otherwise).</summary>
    private const long CreateLockKey = 0x5261_7665_6E4C_6974; // "RavenLit"

    /// <summary>
    /// <c>ravenlite_rows</c> holds every engine table's entries, ordered by (table, key): bytea compares as unsigned
    /// bytes, the order <see cref="StorageTable"/> promises. <c>ravenlite_meta</c> holds the schema version and the
    /// row whose lock every write transaction takes (see docs/scaling.md).
    /// </summary>
    public static readonly string Create = $"""
        SELECT pg_advisory_xact_lock({CreateLockKey});
        CREATE TABLE IF NOT EXISTS ravenlite_meta (name text PRIMARY KEY, value bigint NOT NULL);
        CREATE TABLE IF NOT EXISTS ravenlite_tables (
            id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS ravenlite_rows (
            table_id integer NOT NULL,
            k bytea NOT NULL,
            v bytea NOT NULL,
            PRIMARY KEY (table_id, k));
        INSERT INTO ravenlite_meta (name, value) VALUES ('schema-version', {Version}), ('writer-lock', 0)
            ON CONFLICT (name) DO NOTHING;
        """;

    public const string VersionAndSchema =
        "SELECT (SELECT value FROM ravenlite_meta WHERE name = 'schema-version'), current_schema()";

    public const string InRecovery = "SELECT pg_is_in_recovery()";

    public const string TablesExist = "SELECT to_regclass('ravenlite_meta') IS NOT NULL AND to_regclass('ravenlite_rows') IS NOT NULL";

    /// <summary>
    /// In recovery (a standby)? When did the primary commit the last change replayed here, and how long ago did it
    /// commit the first change not yet replayed (null when all that was received is replayed: no lag).
    /// </summary>
    public const string Replication = """
        SELECT pg_is_in_recovery(), pg_last_xact_replay_timestamp(),
            CASE WHEN pg_last_wal_receive_lsn() IS DISTINCT FROM pg_last_wal_replay_lsn()
                THEN clock_timestamp() - pg_last_xact_replay_timestamp() END
        """;

    public const string AddTable = "INSERT INTO ravenlite_tables (name) VALUES ($1) ON CONFLICT (name) DO NOTHING";

    public const string TableId = "SELECT id FROM ravenlite_tables WHERE name = $1";

    /// <summary>
    /// Taken first by every write transaction and held until it ends: writers on every server take turns, so
    /// etags (read and advanced inside the transaction) are given out in commit order.
    /// </summary>
    public const string TakeWriterLock = "SELECT value FROM ravenlite_meta WHERE name = 'writer-lock' FOR UPDATE";

    public const string Get = "SELECT v FROM ravenlite_rows WHERE table_id = $1 AND k = $2";

    public const string GetMany = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 AND k = ANY($2)";

    public const string Delete = "DELETE FROM ravenlite_rows WHERE table_id = $1 AND k = $2";

    public const string PutMany = """
        INSERT INTO ravenlite_rows (table_id, k, v)
        SELECT * FROM unnest($1::integer[], $2::bytea[], $3::bytea[])
        ON CONFLICT (table_id, k) DO UPDATE SET v = EXCLUDED.v
        """;

    public const string First = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 ORDER BY k LIMIT $2";

    public const string Last = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 ORDER BY k DESC LIMIT $2";

    public const string AtOrAfter = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 AND k >= $2 ORDER BY k LIMIT $3";

    public const string After = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 AND k > $2 ORDER BY k LIMIT $3";

    public const string Before = "SELECT k, v FROM ravenlite_rows WHERE table_id = $1 AND k < $2 ORDER BY k DESC LIMIT $3";

    public const string Notify = $"SELECT pg_notify('{CommitChannel}', $1)";
}
