using Npgsql;
using RavenLite.Database;
using RavenLite.Storage;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Server.Tests.Cli.TransferFixtures;

namespace RavenLite.Server.Tests.Cli;

/// <summary>The migration docs/scaling.md describes, without a server: export an LMDB folder, import it straight into PostgreSQL.</summary>
public sealed class PostgresExportImportTests : IDisposable
{
    private readonly List<string> _paths = [];

    [PostgresFact]
    public async Task Export_from_LMDB_then_import_with_engine_postgres_gives_the_same_documents()
    {
        var (source, target, file) = (Track(NewFolder()), Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        List<(string, string, string)> expected;
        using (var database = Open(source))
        {
            Fill(database, 1500);
            expected = Snapshot(database);
        }
        Assert.Equal(0, (await RunAsync("export", "--data-dir", source, file)).ExitCode);

        var connectionString = TestPostgres.ForDirectory(target);
        var import = await RunAsync("import", "--data-dir", target, "--engine", "postgres", "--connection-string", connectionString, file);

        Assert.True(import.ExitCode == 0, import.Error);
        using var imported = new DocumentDatabase(new DocumentDatabaseOptions
        {
            DataDirectory = target, Engine = StorageEngineKind.Postgres, ConnectionString = connectionString,
        });
        Assert.Equal(expected, Snapshot(imported));
    }

    [PostgresFact]
    public async Task A_refused_connection_is_a_clear_error_that_does_not_repeat_the_password()
    {
        const string password = "not-the-password-4711";
        var (target, file) = (Track(NewFolder()), Track(NewFolder() + ".jsonl"));
        await File.WriteAllTextAsync(file, "");
        var wrong = new NpgsqlConnectionStringBuilder(TestPostgres.ConnectionString) { Password = password }.ConnectionString;

        var import = await RunAsync("import", "--data-dir", target, "--engine", "postgres", "--connection-string", wrong, file);

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("Cannot open the database", import.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(password, import.Error, StringComparison.Ordinal);
    }

    private string Track(string path)
    {
        _paths.Add(path);
        return path;
    }

    public void Dispose()
    {
        foreach (var path in _paths)
        {
            TestPostgres.DropForDirectory(path);
            Delete(path);
        }
    }
}
