using static RavenLite.Server.Tools.ToolArguments;

namespace RavenLite.Server.Tools;

/// <summary>The command line of <c>ravenlite backup</c>, <c>restore</c> and <c>compact</c>.</summary>
internal sealed class MaintenanceOptions
{
    /// <summary><c>backup</c>, <c>restore</c> or <c>compact</c>.</summary>
    public string Verb { get; private init; } = "";

    /// <summary>The database folder: backed up, restored into, or compacted.</summary>
    public string? DataDirectory { get; private set; }

    /// <summary>A running server to back up (<c>POST /admin/backup</c>).</summary>
    public Uri? Url { get; private set; }

    public string? ApiKey { get; private set; }

    /// <summary>For backup: the folder to write; for restore: the backup to read.</summary>
    public string Folder { get; private set; } = "";

    /// <summary>Parses the verb's arguments; throws <see cref="ArgumentException"/> saying what is wrong.</summary>
    public static MaintenanceOptions Parse(string[] args)
    {
        var options = new MaintenanceOptions { Verb = args[0] };
        string? folder = null;
        for (var i = 1; i < args.Length; i++)
        {
            var arg = args[i];
            switch (arg)
            {
                case "--data-dir":
                    options.DataDirectory = Value(args, ref i);
                    break;
                case "--url" when options.Verb == "backup":
                    options.Url = ServerUrl(Value(args, ref i));
                    break;
                case "--api-key" when options.Verb == "backup":
                    options.ApiKey = Value(args, ref i);
                    break;
                default:
                    if (arg.StartsWith("--", StringComparison.Ordinal) || options.Verb == "compact")
                        throw new ArgumentException($"Unknown option '{arg}'.");
                    folder = folder is null ? arg : throw new ArgumentException($"One folder only; got '{folder}' and '{arg}'.");
                    break;
            }
        }
        switch (options.Verb)
        {
            case "backup" when (options.DataDirectory is null) == (options.Url is null):
                throw new ArgumentException("Give either --data-dir <folder> or --url <server address>.");
            case "backup":
                options.Folder = folder ?? throw new ArgumentException("Name the folder to write the backup into (new or empty).");
                break;
            case "restore":
                options.Folder = folder ?? throw new ArgumentException("Name the backup folder to restore.");
                _ = options.DataDirectory ?? throw new ArgumentException("Give --data-dir <folder> to restore into (new or empty).");
                break;
            default:
                _ = options.DataDirectory ?? throw new ArgumentException("Give --data-dir <folder> of the database to compact.");
                break;
        }
        return options;
    }
}
