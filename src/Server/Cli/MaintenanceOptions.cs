using System.CommandLine;
using static RavenLite.Server.Cli.ToolArguments;

namespace RavenLite.Server.Cli;

/// <summary>The command line of <c>ravenlite backup</c>, <c>restore</c> and <c>compact</c>.</summary>
internal sealed class MaintenanceOptions
{
    /// <summary><c>backup</c>, <c>restore</c> or <c>compact</c>.</summary>
    public string Verb { get; private init; } = "";

    /// <summary>The database folder: backed up, restored into, or compacted.</summary>
    public string? DataDirectory { get; private init; }

    /// <summary>A running server to back up (<c>POST /admin/backup</c>).</summary>
    public Uri? Url { get; private init; }

    public string? ApiKey { get; private init; }

    /// <summary>For backup: the folder to write; for restore: the backup to read.</summary>
    public string Folder { get; private set; } = "";

    private static readonly Argument<string> s_backupFolder = new("folder") { Description = "with --data-dir: a new or empty folder; with --url: a folder name inside the server's --backup-dir", Arity = ArgumentArity.ZeroOrOne };
    private static readonly Argument<string> s_restoreFolder = new("backup-folder") { Description = "the backup to restore", Arity = ArgumentArity.ZeroOrOne };

    /// <summary><c>ravenlite backup</c>.</summary>
    public static Verb BackupVerb { get; } = new("backup",
        "Write a consistent copy (documents, indexes, manifest.json with every file's SHA-256) while the database stays in" +
        " use; with --url the server writes it, into a folder of that name inside its --backup-dir (a path leading" +
        " elsewhere is refused).",
        [CliOptions.DataDir, CliOptions.Url, CliOptions.ApiKey, s_backupFolder], RunAsync);

    /// <summary><c>ravenlite restore</c>.</summary>
    public static Verb RestoreVerb { get; } = new("restore",
        "Check every file of a backup against its manifest (a damaged or partial backup is refused), then copy it into" +
        " a new or empty --data-dir.",
        [CliOptions.DataDir, s_restoreFolder], RunAsync);

    /// <summary><c>ravenlite compact</c>.</summary>
    public static Verb CompactVerb { get; } = new("compact",
        "Shrink the data file after large deletes (no server may have the folder open); prints its size before and after.",
        [CliOptions.DataDir], RunAsync);

    private static Task<string> RunAsync(ParseResult parsed, TextWriter error, CancellationToken cancellationToken) =>
        MaintenanceCommand.RunAsync(From(parsed), error);

    /// <summary>The verb's options; throws <see cref="ArgumentException"/> saying what is wrong with them.</summary>
    public static MaintenanceOptions From(ParseResult parsed)
    {
        var verb = parsed.CommandResult.Command.Name;
        var options = new MaintenanceOptions
        {
            Verb = verb,
            DataDirectory = parsed.GetValue(CliOptions.DataDir),
            Url = verb == "backup" && parsed.GetValue(CliOptions.Url) is { } url ? ServerUrl(url) : null,
            ApiKey = verb == "backup" ? parsed.GetValue(CliOptions.ApiKey) : null,
        };
        switch (verb)
        {
            case "backup" when (options.DataDirectory is null) == (options.Url is null):
                throw new ArgumentException("Give either --data-dir <folder> or --url <server address>.");
            case "backup":
                options.Folder = parsed.GetValue(s_backupFolder) ?? throw new ArgumentException("Name the folder to write the backup into (new or empty).");
                break;
            case "restore":
                options.Folder = parsed.GetValue(s_restoreFolder) ?? throw new ArgumentException("Name the backup folder to restore.");
                _ = options.DataDirectory ?? throw new ArgumentException("Give --data-dir <folder> to restore into (new or empty).");
                break;
            default:
                _ = options.DataDirectory ?? throw new ArgumentException("Give --data-dir <folder> of the database to compact.");
                break;
        }
        return options;
    }
}
