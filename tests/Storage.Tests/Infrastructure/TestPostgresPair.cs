using System.Diagnostics;
using Npgsql;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// A throw-away PostgreSQL primary and its streaming hot standby (build/test-postgres-pair.sh), for failover and
/// read-standby tests: started per test, killed, promoted, and stopped (folder deleted) on dispose.
/// </summary>
public sealed class TestPostgresPair : IDisposable
{
    private static readonly Lazy<string?> Script = new(FindScript);
    private readonly string _folder;

    private TestPostgresPair(string folder, int primaryPort, int standbyPort, string password)
    {
        _folder = folder;
        PrimaryPort = primaryPort;
        StandbyPort = standbyPort;
        Password = password;
    }

    /// <summary>Null when a pair can be made here; otherwise why the tests that need one are skipped.</summary>
    public static string? SkipReason =>
        TestPostgres.SkipReason
        ?? (Script.Value is null ? "build/test-postgres-pair.sh was not found above the test folder" : null)
        ?? (FindBinary("pg_basebackup") ? null : "PostgreSQL's pg_basebackup is not installed");

    public int PrimaryPort { get; }

    public int StandbyPort { get; }

    public string Password { get; }

    /// <summary>Both hosts, primary first; Npgsql connects to whichever is primary.</summary>
    public string FailoverConnectionString =>
        $"Host=127.0.0.1:{PrimaryPort},127.0.0.1:{StandbyPort};Target Session Attributes=primary;Username=ravenlite;Password={Password};Database=postgres;Timeout=5";

    public string PrimaryConnectionString => Single(PrimaryPort);

    public string StandbyConnectionString => Single(StandbyPort);

    /// <summary>Starts a primary and a standby streaming from it; <paramref name="synchronous"/> makes the standby synchronous.</summary>
    public static TestPostgresPair Start(bool synchronous)
    {
        var (exitCode, output, errors) = Run("start", synchronous ? "sync" : "async");
        if (exitCode != 0)
            throw new InvalidOperationException($"build/test-postgres-pair.sh start failed: {errors.Trim()}");
        var values = output.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split('=', 2))
            .Where(pair => pair.Length == 2)
            .ToDictionary(pair => pair[0], pair => pair[1].Trim('\''), StringComparer.Ordinal);
        return new TestPostgresPair(values["RAVENLITE_TEST_POSTGRES_PAIR_DIR"],
            int.Parse(values["RAVENLITE_TEST_POSTGRES_PRIMARY_PORT"], System.Globalization.CultureInfo.InvariantCulture),
            int.Parse(values["RAVENLITE_TEST_POSTGRES_STANDBY_PORT"], System.Globalization.CultureInfo.InvariantCulture),
            values["RAVENLITE_TEST_POSTGRES_PASSWORD"]);
    }

    /// <summary>Stops the primary as a crash would (<c>pg_ctl stop -m immediate</c>).</summary>
    public void KillPrimary() => RunOrThrow("kill-primary", _folder);

    /// <summary>Promotes the standby and returns once it accepts writes.</summary>
    public void Promote() => RunOrThrow("promote", _folder);

    /// <summary>Stops the standby: what the primary commits meanwhile does not reach it (a synchronous primary's commits wait).</summary>
    public void StopStandby() => RunOrThrow("stop-standby", _folder);

    /// <summary>Starts the standby again; it streams from the primary, if that still runs.</summary>
    public void StartStandby() => RunOrThrow("start-standby", _folder);

    /// <summary>
    /// Samples the primary's view of its standby (pg_stat_replication) every 20 ms until the primary stops answering
    /// or <paramref name="stop"/> is cancelled: the largest flush lag and WAL distance seen. An asynchronous failover
    /// loses what the standby had not flushed.
    /// </summary>
    public ReplicationLagSamples SampleReplicationLag(CancellationToken stop)
    {
        var samples = 0;
        var maxLag = TimeSpan.Zero;
        long maxBytes = 0;
        try
        {
            using var primary = new NpgsqlConnection(PrimaryConnectionString);
            primary.Open();
            while (!stop.IsCancellationRequested)
            {
                using var command = new NpgsqlCommand(
                    "SELECT coalesce(flush_lag, interval '0'), coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), flush_lsn), 0)::bigint FROM pg_stat_replication", primary);
                using (var reader = command.ExecuteReader())
                {
                    while (reader.Read())
                    {
                        samples++;
                        maxLag = TimeSpan.FromTicks(Math.Max(maxLag.Ticks, reader.GetFieldValue<TimeSpan>(0).Ticks));
                        maxBytes = Math.Max(maxBytes, reader.GetInt64(1));
                    }
                }
                Thread.Sleep(20);
            }
        }
        catch (NpgsqlException)
        {
            // the primary was killed: sampling ends there
        }
        return new ReplicationLagSamples(samples, maxLag, maxBytes);
    }

    /// <summary>Pauses (or resumes) the standby's replay: it keeps receiving the primary's WAL but applies none of it.</summary>
    public void PauseStandbyReplay(bool pause)
    {
        using var standby = new NpgsqlConnection(StandbyConnectionString);
        standby.Open();
        using var command = new NpgsqlCommand(pause ? "SELECT pg_wal_replay_pause()" : "SELECT pg_wal_replay_resume()", standby);
        command.ExecuteNonQuery();
    }

    /// <summary>Waits until the standby has received WAL it has not replayed (as after <see cref="PauseStandbyReplay"/> and a write).</summary>
    public void WaitForStandbyToFallBehind(TimeSpan timeout)
    {
        using var standby = new NpgsqlConnection(StandbyConnectionString);
        standby.Open();
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < timeout)
        {
            using var behind = new NpgsqlCommand("SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()", standby);
            if (behind.ExecuteScalar() is true)
                return;
            Thread.Sleep(10);
        }
        throw new TimeoutException($"the standby did not fall behind within {timeout}");
    }

    /// <summary>Waits until a commit on the primary waits for its synchronous standby (SyncRep): it has been sent.</summary>
    public void WaitForCommitWaitingOnStandby(TimeSpan timeout)
    {
        using var primary = new NpgsqlConnection(PrimaryConnectionString);
        primary.Open();
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < timeout)
        {
            using var waiting = new NpgsqlCommand("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'", primary);
            if ((long)waiting.ExecuteScalar()! > 0)
                return;
            Thread.Sleep(10);
        }
        throw new TimeoutException($"no commit waited for the synchronous standby within {timeout}");
    }

    /// <summary>Waits until the standby has replayed everything the primary has written so far.</summary>
    public void WaitForStandbyToCatchUp(TimeSpan timeout)
    {
        string target;
        using (var primary = new NpgsqlConnection(PrimaryConnectionString))
        {
            primary.Open();
            using var lsn = new NpgsqlCommand("SELECT pg_current_wal_lsn()::text", primary);
            target = (string)lsn.ExecuteScalar()!;
        }
        using var standby = new NpgsqlConnection(StandbyConnectionString);
        standby.Open();
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < timeout)
        {
            using var caught = new NpgsqlCommand("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", standby);
            caught.Parameters.AddWithValue(target);
            if ((bool)caught.ExecuteScalar()!)
                return;
            Thread.Sleep(10);
        }
        throw new TimeoutException($"the standby did not replay up to {target} within {timeout}");
    }

    public void Dispose() => Run("stop", _folder);

    private string Single(int port) =>
        $"Host=127.0.0.1;Port={port};Username=ravenlite;Password={Password};Database=postgres;Timeout=5";

    private static void RunOrThrow(params string[] args)
    {
        var (exitCode, _, errors) = Run(args);
        if (exitCode != 0)
            throw new InvalidOperationException($"build/test-postgres-pair.sh {args[0]} failed: {errors.Trim()}");
    }

    private static (int ExitCode, string Output, string Errors) Run(params string[] args)
    {
        var start = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add(Script.Value ?? throw new InvalidOperationException(SkipReason));
        foreach (var arg in args)
            start.ArgumentList.Add(arg);
        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output, errors.Result);
    }

    private static bool FindBinary(string name) =>
        (Directory.Exists("/usr/lib/postgresql")
            && Directory.EnumerateDirectories("/usr/lib/postgresql").Any(d => File.Exists(Path.Combine(d, "bin", name))))
        || (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Any(d => d.Length > 0 && File.Exists(Path.Combine(d, name)));

    private static string? FindScript()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var script = Path.Combine(dir.FullName, "build", "test-postgres-pair.sh");
            if (File.Exists(script))
                return script;
        }
        return null;
    }
}

/// <summary>What <see cref="TestPostgresPair.SampleReplicationLag"/> saw.</summary>
public sealed record ReplicationLagSamples(int Samples, TimeSpan MaxFlushLag, long MaxBytesBehind);

/// <summary>A test that needs a PostgreSQL primary and standby: skipped, with the reason, when none can be made here.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class PostgresPairFactAttribute : FactAttribute
{
    public PostgresPairFactAttribute() => Skip = TestPostgresPair.SkipReason;
}
