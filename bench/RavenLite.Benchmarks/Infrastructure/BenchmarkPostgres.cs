using Npgsql;

namespace RavenLite.Benchmarks.Infrastructure;

/// <summary>
/// The PostgreSQL the engine benchmarks run on: <c>RAVENLITE_BENCH_POSTGRES</c>, else <c>RAVENLITE_TEST_POSTGRES</c>
/// (build/test-postgres.sh start prints one; .ci/run sets it). Each database gets a schema of its own, dropped after.
/// </summary>
internal static class BenchmarkPostgres
{
    /// <summary>The server's connection string; null when none is configured (the PostgreSQL cases are left out).</summary>
    public static string? ConnectionString { get; } =
        Environment.GetEnvironmentVariable("RAVENLITE_BENCH_POSTGRES") is { Length: > 0 } bench
            ? bench
            : Environment.GetEnvironmentVariable("RAVENLITE_TEST_POSTGRES") is { Length: > 0 } test ? test : null;

    /// <summary>Creates a schema and returns a connection string whose search path is it.</summary>
    public static string NewSchema(out string schema)
    {
        var server = ConnectionString ?? throw new InvalidOperationException("Set RAVENLITE_BENCH_POSTGRES to run the PostgreSQL benchmarks.");
        schema = "bench_" + Guid.NewGuid().ToString("N");
        Execute(server, $"CREATE SCHEMA {schema}");
        return new NpgsqlConnectionStringBuilder(server) { SearchPath = schema }.ConnectionString;
    }

    public static void DropSchema(string schema) => Execute(ConnectionString!, $"DROP SCHEMA IF EXISTS {schema} CASCADE");

    private static void Execute(string connectionString, string sql)
    {
        using var connection = new NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }
}
