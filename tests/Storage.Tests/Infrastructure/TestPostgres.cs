using System.Collections.Concurrent;
using System.Diagnostics;
using System.Security.Cryptography;
using System.Text;
using Npgsql;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// The PostgreSQL the tests of the PostgreSQL engine run against: the one <c>RAVENLITE_TEST_POSTGRES</c> names
/// (.ci/run starts a throw-away cluster and sets it), otherwise a throw-away cluster this test process starts with
/// build/test-postgres.sh and stops when it exits. Each test folder gets a schema of its own.
/// </summary>
public static class TestPostgres
{
    public const string EnvironmentVariable = "RAVENLITE_TEST_POSTGRES";

    private static readonly Lazy<(string? ConnectionString, string? Failure)> Server = new(Start);
    private static readonly ConcurrentDictionary<string, string> Schemas = new(StringComparer.Ordinal);

    /// <summary>Null when PostgreSQL runs; otherwise why the PostgreSQL cases are skipped.</summary>
    public static string? SkipReason => Server.Value.Failure is { } failure ? "PostgreSQL could not be started: " + failure : null;

    /// <summary>The server's connection string (no schema picked).</summary>
    public static string ConnectionString =>
        Server.Value.ConnectionString ?? throw new InvalidOperationException(SkipReason);

    /// <summary>
    /// A connection string whose search path is a schema of <paramref name="directory"/>'s own, created when missing:
    /// opening the same folder again opens the same database.
    /// </summary>
    public static string ForDirectory(string directory)
    {
        var schema = Schemas.GetOrAdd(directory, static d =>
        {
            var name = "t_" + Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(d)))[..24];
            Execute($"CREATE SCHEMA IF NOT EXISTS {name}");
            return name;
        });
        return new NpgsqlConnectionStringBuilder(ConnectionString) { SearchPath = schema }.ConnectionString;
    }

    /// <summary>Drops the schema of <paramref name="directory"/>, if one was made.</summary>
    public static void DropForDirectory(string directory)
    {
        if (Schemas.TryRemove(directory, out var schema))
            Execute($"DROP SCHEMA IF EXISTS {schema} CASCADE");
    }

    public static void Execute(string sql)
    {
        using var connection = new NpgsqlConnection(ConnectionString);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }

    private static (string?, string?) Start()
    {
        if (Environment.GetEnvironmentVariable(EnvironmentVariable) is { Length: > 0 } given)
            return Probe(given) is { } failure ? (null, $"{EnvironmentVariable} is set but PostgreSQL did not answer: {failure}") : (given, null);

        var script = FindScript();
        if (script is null)
            return (null, "build/test-postgres.sh was not found above the test folder");
        var (exitCode, output, errors) = Run(script, "start");
        if (exitCode != 0)
            return (null, $"build/test-postgres.sh start failed: {errors.Trim()}");
        var values = output.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split('=', 2))
            .Where(pair => pair.Length == 2)
            .ToDictionary(pair => pair[0], pair => pair[1].Trim('\''), StringComparer.Ordinal);
        var connectionString = values.GetValueOrDefault(EnvironmentVariable);
        var folder = values.GetValueOrDefault(EnvironmentVariable + "_DIR");
        if (connectionString is null || folder is null)
            return (null, "build/test-postgres.sh start printed no connection string");
        // Detached (setsid) and not waited for: the test runner may end this process before a stop could finish.
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
            Process.Start(new ProcessStartInfo("setsid", ["bash", script, "stop", folder]) { UseShellExecute = false })?.Dispose();
        return Probe(connectionString) is { } probeFailure ? (null, probeFailure) : (connectionString, null);
    }

    private static string? Probe(string connectionString)
    {
        try
        {
            using var connection = new NpgsqlConnection(connectionString);
            connection.Open();
            return null;
        }
        catch (Exception ex) when (ex is NpgsqlException or ArgumentException or InvalidOperationException)
        {
            return ex.Message;
        }
    }

    private static string? FindScript()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var script = Path.Combine(dir.FullName, "build", "test-postgres.sh");
            if (File.Exists(script))
                return script;
        }
        return null;
    }

    private static (int ExitCode, string Output, string Errors) Run(string script, params string[] args)
    {
        var start = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add(script);
        foreach (var arg in args)
            start.ArgumentList.Add(arg);
        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output, errors.Result);
    }
}
