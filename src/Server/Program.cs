using RavenLite.Server;
using RavenLite.Server.Tools;

// dotnet run --project src/Server -c Release  ->  http://127.0.0.1:8080 over an LMDB database in ./data.
// Options: `ravenlite --help` (generated from Hosting/ServerConfiguration.Switches). Ctrl+C / SIGTERM finish in-flight
// requests, then close the database. `ravenlite export|import|--help` run a tool verb instead (Tools/ToolCommand.cs).
if (await ToolCommand.TryRunAsync(args, Console.Out, Console.Error, interactive: !Console.IsErrorRedirected) is { } exitCode)
    return exitCode;

WebApplication app;
try
{
    app = RavenLiteServer.Build(args);
}
catch (ServerStartupException ex)
{
    await Console.Error.WriteLineAsync($"RavenLite cannot start: {ex.Message}");
    return ex.ExitCode;
}

try
{
    await app.RunAsync();
    return 0;
}
catch (IOException ex)
{
    // Kestrel could not bind (the port is taken, or the address is not local).
    await Console.Error.WriteLineAsync($"RavenLite cannot start listening: {ex.Message}");
    return ServerStartupException.StartupExitCode;
}
