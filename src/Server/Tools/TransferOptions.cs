using RavenLite.Storage;
using static RavenLite.Server.Tools.ToolArguments;

namespace RavenLite.Server.Tools;

/// <summary>The command line of <c>ravenlite export</c> and <c>ravenlite import</c>.</summary>
internal sealed class TransferOptions
{
    /// <summary>Documents per batch: one write transaction, or one <c>/bulk_docs</c> request, each.</summary>
    public const int BatchSize = 1000;

    public bool Export { get; private init; }

    /// <summary>The database folder, when working on one directly.</summary>
    public string? DataDirectory { get; private set; }

    /// <summary>The running server's base address, when working over HTTP.</summary>
    public Uri? Url { get; private set; }

    public string? ApiKey { get; private set; }

    /// <summary>The storage engine of <see cref="DataDirectory"/>'s database (<c>--engine</c>, LMDB when not given).</summary>
    public StorageEngineKind Engine { get; private set; } = StorageEngineKind.Lmdb;

    /// <summary>The PostgreSQL connection string, with <c>--engine postgres</c>.</summary>
    public string? ConnectionString { get; private set; }

    /// <summary>The JSON lines file, or <c>-</c> for standard output or input.</summary>
    public string File { get; private set; } = "";

    /// <summary>Parses <c>export|import [options] file</c>; throws <see cref="ArgumentException"/> saying what is wrong.</summary>
    public static TransferOptions Parse(string[] args)
    {
        var options = new TransferOptions { Export = args[0] == "export" };
        string? file = null;
        for (var i = 1; i < args.Length; i++)
        {
            var arg = args[i];
            switch (arg)
            {
                case "--data-dir":
                    options.DataDirectory = Value(args, ref i);
                    break;
                case "--url":
                    options.Url = ServerUrl(Value(args, ref i));
                    break;
                case "--api-key":
                    options.ApiKey = Value(args, ref i);
                    break;
                case "--engine":
                    var engine = Value(args, ref i);
                    options.Engine = Enum.TryParse<StorageEngineKind>(engine, ignoreCase: true, out var kind) && Enum.IsDefined(kind)
                        ? kind : throw new ArgumentException($"--engine must be one of {string.Join(", ", Enum.GetNames<StorageEngineKind>())}, not '{engine}'.");
                    break;
                case "--connection-string":
                    options.ConnectionString = Value(args, ref i);
                    break;
                default:
                    if (arg.StartsWith("--", StringComparison.Ordinal))
                        throw new ArgumentException($"Unknown option '{arg}'.");
                    file = file is null ? arg : throw new ArgumentException($"One file only; got '{file}' and '{arg}'.");
                    break;
            }
        }
        if ((options.DataDirectory is null) == (options.Url is null))
            throw new ArgumentException("Give either --data-dir <folder> or --url <server address>.");
        if (options.Url is not null && (options.Engine != StorageEngineKind.Lmdb || options.ConnectionString is not null))
            throw new ArgumentException("--engine and --connection-string go with --data-dir; with --url the server has its own engine.");
        options.File = file ?? throw new ArgumentException($"Name the file to {(options.Export ? "write" : "read")} (or '-').");
        return options;
    }
}
