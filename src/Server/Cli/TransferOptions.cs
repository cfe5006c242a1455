using RavenLite.Storage;
using System.CommandLine;
using static RavenLite.Server.Cli.ToolArguments;

namespace RavenLite.Server.Cli;

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

    private static readonly Argument<string> s_file = new("file") { Description = "the JSON lines file; '-' is standard output (export) or input (import)", Arity = ArgumentArity.ZeroOrOne };

    private static readonly Symbol[] s_symbols = [CliOptions.DataDir, CliOptions.Engine, CliOptions.ConnectionString, CliOptions.Url, CliOptions.ApiKey, s_file];

    private const string Format =
        " One JSON object a line: {\"key\": \"...\", \"metadata\": {...}, \"data\": {...}}, in etag order (oldest first), so an" +
        " export imported into an empty database gives the same documents in the same order. --data-dir opens the database" +
        " folder directly (no server may have it open), on the engine --engine names; --url talks to a running server" +
        " (GET /docs, POST /bulk_docs), with --api-key when it needs one.";

    /// <summary><c>ravenlite export</c>.</summary>
    public static Verb ExportVerb { get; } = new("export", "Write every document to a JSON lines file." + Format, s_symbols,
        (parsed, error, cancellationToken) => Exporter.RunAsync(From(parsed, export: true), Progress(error), cancellationToken));

    /// <summary><c>ravenlite import</c>.</summary>
    public static Verb ImportVerb { get; } = new("import",
        "Write the documents of a JSON lines file, in batches of 1,000 documents in one transaction each; a bad line stops" +
        " the import with its line number, and nothing from its batch is written." + Format, s_symbols,
        (parsed, error, cancellationToken) => Importer.RunAsync(From(parsed, export: false), Progress(error), cancellationToken));

    // A terminal gets one progress line redrawn in place; a redirected standard error (a log, a test) plain lines.
    private static TransferProgress Progress(TextWriter error) =>
        new(error, interactive: ReferenceEquals(error, Console.Error) && !Console.IsErrorRedirected);

    /// <summary>The verb's options; throws <see cref="ArgumentException"/> saying what is wrong with them.</summary>
    public static TransferOptions From(ParseResult parsed, bool export)
    {
        var options = new TransferOptions
        {
            Export = export,
            DataDirectory = parsed.GetValue(CliOptions.DataDir),
            Url = parsed.GetValue(CliOptions.Url) is { } url ? ServerUrl(url) : null,
            ApiKey = parsed.GetValue(CliOptions.ApiKey),
            ConnectionString = parsed.GetValue(CliOptions.ConnectionString),
        };
        if (parsed.GetValue(CliOptions.Engine) is { } engine)
            options.Engine = Enum.TryParse<StorageEngineKind>(engine, ignoreCase: true, out var kind) && Enum.IsDefined(kind)
                ? kind : throw new ArgumentException($"--engine must be one of {string.Join(", ", Enum.GetNames<StorageEngineKind>())}, not '{engine}'.");
        if ((options.DataDirectory is null) == (options.Url is null))
            throw new ArgumentException("Give either --data-dir <folder> or --url <server address>.");
        if (options.Url is not null && (options.Engine != StorageEngineKind.Lmdb || options.ConnectionString is not null))
            throw new ArgumentException("--engine and --connection-string go with --data-dir; with --url the server has its own engine.");
        options.File = parsed.GetValue(s_file) ?? throw new ArgumentException($"Name the file to {(options.Export ? "write" : "read")} (or '-').");
        return options;
    }
}
