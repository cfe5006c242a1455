using Npgsql;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Scaling;

public sealed class PostgresStartupTests
{
    [Fact]
    public void Engine_postgres_without_a_connection_string_is_a_configuration_error()
    {
        var ex = Assert.Throws<ServerStartupException>(() =>
            RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), "--engine", "postgres", "--urls", "http://127.0.0.1:0"]));

        Assert.Equal(ServerStartupException.ConfigurationExitCode, ex.ExitCode);
        Assert.Contains("--connection-string", ex.Message, StringComparison.Ordinal);
    }

    [PostgresFact]
    public void A_wrong_password_stops_the_start_with_a_message_that_does_not_repeat_the_password()
    {
        const string password = "not-the-password-4711";
        var wrong = new NpgsqlConnectionStringBuilder(TestPostgres.ConnectionString) { Password = password }.ConnectionString;
        var directory = TestServer.NewDataDirectory();

        var ex = Assert.Throws<ServerStartupException>(() =>
            RavenLiteServer.Build(["--data-dir", directory, "--engine", "postgres", "--connection-string", wrong, "--urls", "http://127.0.0.1:0"]));

        Assert.Equal(ServerStartupException.StartupExitCode, ex.ExitCode);
        Assert.Contains("Cannot open the database", ex.Message, StringComparison.Ordinal);
        Assert.Contains("password authentication failed", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(password, ex.ToString(), StringComparison.Ordinal);
        Directory.Delete(directory, recursive: true);
    }
}
