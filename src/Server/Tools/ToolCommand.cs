namespace RavenLite.Server.Tools;

/// <summary>
/// The verbs of the <c>ravenlite</c> tool besides serving: <c>export</c>, <c>import</c>, <c>backup</c>, <c>restore</c>,
/// <c>compact</c> and <c>--help</c>. Any other
/// command line (including none) starts the server, exactly as before the verbs existed.
/// </summary>
internal static class ToolCommand
{
    /// <summary>Exit code when the command line is wrong.</summary>
    public const int UsageExitCode = 2;

    /// <summary>Exit code when the transfer failed (a bad line, an unreachable server, a database that will not open).</summary>
    public const int FailedExitCode = 1;

    /// <summary>Runs a tool verb and returns its exit code, or null when <paramref name="args"/> asks for the server.</summary>
    public static async Task<int?> TryRunAsync(string[] args, TextWriter output, TextWriter error, bool interactive)
    {
        if (args.Length == 0)
            return null;
        switch (args[0])
        {
            case "--help" or "-h" or "-?" or "help":
                await output.WriteAsync(Usage);
                return 0;
            case "export" or "import":
                break;
            case "backup" or "restore" or "compact":
                return await RunMaintenanceAsync(args, output, error);
            default:
                return null;
        }
        if (await ParseAsync(args, TransferOptions.Parse, error) is not { } options)
            return UsageExitCode;
        var progress = new TransferProgress(error, interactive);
        try
        {
            var summary = options.Export
                ? await Exporter.RunAsync(options, progress, CancellationToken.None)
                : await Importer.RunAsync(options, progress, CancellationToken.None);
            await output.WriteLineAsync(summary);
            return 0;
        }
        catch (TransferException ex)
        {
            progress.Finish();
            await error.WriteLineAsync($"ravenlite {args[0]}: {ex.Message}");
            return FailedExitCode;
        }
    }

    private static async Task<int> RunMaintenanceAsync(string[] args, TextWriter output, TextWriter error)
    {
        if (await ParseAsync(args, MaintenanceOptions.Parse, error) is not { } options)
            return UsageExitCode;
        try
        {
            await MaintenanceCommand.RunAsync(options, output, error);
            return 0;
        }
        catch (TransferException ex)
        {
            await error.WriteLineAsync($"ravenlite {args[0]}: {ex.Message}");
            return FailedExitCode;
        }
    }

    /// <summary>The verb's options, or null after saying on <paramref name="error"/> what is wrong with them.</summary>
    private static async Task<T?> ParseAsync<T>(string[] args, Func<string[], T> parse, TextWriter error) where T : class
    {
        try
        {
            return parse(args);
        }
        catch (ArgumentException ex)
        {
            await error.WriteLineAsync($"ravenlite {args[0]}: {ex.Message}");
            await error.WriteLineAsync("Run 'ravenlite --help' for usage.");
            return null;
        }
    }

    /// <summary>The help text: the server options come from the switches the server reads.</summary>
    public static string Usage { get; } = UsageHead + Hosting.ServerConfiguration.SwitchHelp() + Environment.NewLine + UsageTail;

    private const string UsageHead = """
        ravenlite: RavenLite's server, studio and import/export tool.

        Usage:
          ravenlite [server options]                       serve the HTTP API, the studio (/studio/) and OpenAPI (/openapi/v1.json)
          ravenlite export (--data-dir <dir> [--engine <engine>] [--connection-string <cs>] | --url <url>) <file.jsonl>
          ravenlite import (--data-dir <dir> [--engine <engine>] [--connection-string <cs>] | --url <url>) <file.jsonl>
          ravenlite backup (--data-dir <dir> <backup-folder> | --url <url> <name-in-server-backup-dir>)
          ravenlite restore <backup-folder> --data-dir <dir>
          ravenlite compact --data-dir <dir>
          ravenlite --help

        Server options (also RavenLite:<Setting> in appsettings.json, or RavenLite__<Setting> in the environment):

        """;

    private const string UsageTail = """

        Export and import:
          One JSON object a line: {"key": "...", "metadata": {...}, "data": {...}}, in etag order (oldest first), so an
          export imported into an empty database gives the same documents in the same order. Imports write batches of
          1,000 documents in one transaction each; a bad line stops the import with its line number, and nothing from
          its batch is written. --data-dir opens the database folder directly (no server may have it open), on the
          engine --engine names (lmdb when not given; postgres with --connection-string, as the server takes them);
          --url talks to a running server (GET /docs, POST /bulk_docs), with --api-key when it needs one. '-' is
          standard output (export) or input (import).

        Backup, restore and compact (docs/operations.md):
          backup writes a consistent copy (documents, indexes, manifest.json with every file's SHA-256) into a new or
          empty folder while the database stays in use; with --url the server writes it, into a folder of that name inside
          its --backup-dir (a path leading elsewhere is refused).
          restore checks every file against the manifest and refuses a damaged or partial backup, then copies it into
          a new or empty folder. compact (no server may have the folder open) shrinks the data file after large
          deletes and prints its size before and after.

        """;
}
