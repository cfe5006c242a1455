using System.CommandLine;
using System.CommandLine.Parsing;

namespace RavenLite.Server.Cli;

/// <summary>
/// <c>ravenlite serve</c> (and <c>ravenlite</c> with no verb): the HTTP API, the studio (/studio/) and OpenAPI
/// (/openapi/v1.json) until Ctrl+C or SIGTERM, which finish in-flight requests and then close the database.
/// </summary>
internal static class ServeCommand
{
    public const string Name = "serve";

    public static Command Create()
    {
        var command = new Command(Name,
            "Serve the HTTP API, the studio (/studio/) and OpenAPI (/openapi/v1.json). Each option is also " +
            "RavenLite:<Setting> in appsettings.json, or RavenLite__<Setting> in the environment.")
        {
            TreatUnmatchedTokensAsErrors = false,
        };
        foreach (var option in CliOptions.Server)
            command.Add(option);
        command.SetAction(RunAsync);
        return command;
    }

    /// <summary>Builds and runs the server over the command line's settings; returns the exit code.</summary>
    public static async Task<int> RunAsync(ParseResult parsed, CancellationToken cancellationToken)
    {
        var error = parsed.InvocationConfiguration.Error;
        // The server reads the same command line (ServerConfiguration.Settings); host settings pass through as given.
        var args = parsed.Tokens.Where(t => t.Type != TokenType.Command).Select(t => t.Value).ToArray();
        WebApplication app;
        try
        {
            app = RavenLiteServer.Build(args);
        }
        catch (ServerStartupException ex)
        {
            await error.WriteLineAsync($"RavenLite cannot start: {ex.Message}");
            return ex.ExitCode;
        }

        try
        {
            await app.RunAsync(cancellationToken);
            return 0;
        }
        catch (IOException ex)
        {
            // Kestrel could not bind (the port is taken, or the address is not local).
            await error.WriteLineAsync($"RavenLite cannot start listening: {ex.Message}");
            return ServerStartupException.StartupExitCode;
        }
    }
}
