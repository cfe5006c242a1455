using Microsoft.Extensions.Configuration;
using RavenLite.Database;

namespace RavenLite.Server.Hosting;

/// <summary>
/// Reads <see cref="RavenLiteServerOptions"/> and its <see cref="DocumentDatabaseOptions"/> from the one <c>RavenLite</c>
/// configuration section, including the command-line switches, and validates them once.
/// </summary>
internal static class ServerConfiguration
{
    private const string Section = RavenLiteServerOptions.SectionName;

    /// <summary>
    /// Command-line switches, the settings they set (each switch is the setting's name in kebab case, the same name as
    /// in appsettings.json and in <c>RavenLite__*</c> environment variables) and their help lines.
    /// </summary>
    public static IReadOnlyList<ServerSwitch> Switches { get; } =
    [
        new("--data-dir", nameof(DocumentDatabaseOptions.DataDirectory), "<dir>", "database folder (default ./data)"),
        new("--engine", nameof(DocumentDatabaseOptions.Engine), "<engine>", "Lmdb (default), Esent (Windows) or Postgres"),
        new("--connection-string", nameof(DocumentDatabaseOptions.ConnectionString), "<string>", "PostgreSQL connection string for --engine postgres (never logged)"),
        new("--map-size", nameof(DocumentDatabaseOptions.MapSize), "<bytes>", "initial LMDB map size (default 4 GiB; doubles when full)"),
        new("--cache-size-mb", nameof(DocumentDatabaseOptions.CacheSizeMb), "<mb>", "document cache limit; 0 turns it off"),
        new("--backup-dir", nameof(RavenLiteServerOptions.BackupDirectory), "<dir>", "where POST /admin/backup writes (default <data-dir>-backups)"),
        new("--port", nameof(RavenLiteServerOptions.Port), "<port>", "port on 127.0.0.1 (default 8080)"),
        new("--urls", nameof(RavenLiteServerOptions.Urls), "<urls>", "listen addresses; anything but loopback needs --api-key"),
        new("--certificate", nameof(RavenLiteServerOptions.Certificate), "<file>", "TLS certificate for https:// URLs: PEM (with --certificate-key) or .pfx"),
        new("--certificate-key", nameof(RavenLiteServerOptions.CertificateKey), "<file>", "the PEM private key of --certificate (a .pfx's password: RavenLite__CertificatePassword)"),
        new("--otlp-endpoint", nameof(RavenLiteServerOptions.OtlpEndpoint), "<url>", "export metrics and traces over OTLP (off when unset)"),
        new("--prometheus", nameof(RavenLiteServerOptions.Prometheus), "<bool>", "serve metrics at /metrics for Prometheus (admin scope; default false)"),
        new("--query-cache-mb", nameof(RavenLiteServerOptions.QueryCacheMb), "<mb>", "query response cache limit (default 64); 0 turns it off"),
        new("--query-timeout", nameof(RavenLiteServerOptions.QueryTimeout), "<seconds>", "longest a query may run (default 5); then 503 query-timeout"),
        new("--expiry-interval-seconds", nameof(RavenLiteServerOptions.ExpiryIntervalSeconds), "<seconds>", "delete expired documents this often (default 0: off; they are never returned either way)"),
        new("--shutdown-timeout", nameof(RavenLiteServerOptions.ShutdownTimeout), "<seconds>", "how long stopping waits for in-flight requests (default 5)"),
        new("--api-key", nameof(RavenLiteServerOptions.ApiKey), "<key>", "an admin key; with any key, requests must send one in X-Api-Key"),
        new("--api-keys-file", nameof(RavenLiteServerOptions.ApiKeysFile), "<file>", "keys with scopes, one '<read|write|admin> <key>' a line"),
        new("--allowed-hosts", nameof(RavenLiteServerOptions.AllowedHosts), "<hosts>", "Host names served besides loopback (; or , separated; * any)"),
        new("--cors-origins", nameof(RavenLiteServerOptions.CorsOrigins), "<origins>", "web origins allowed to call from a browser (; or , separated)"),
    ];

    /// <summary>The switches as configuration keys, for <c>AddCommandLine</c>.</summary>
    public static IDictionary<string, string> SwitchMappings =>
        Switches.ToDictionary(s => s.Flag, s => $"{Section}:{s.Setting}", StringComparer.Ordinal);

    /// <summary>The switches' help lines, aligned, as <c>ravenlite --help</c> prints them.</summary>
    public static string SwitchHelp()
    {
        var width = Switches.Max(s => s.Flag.Length + 1 + s.Argument.Length) + 2;
        return string.Join(Environment.NewLine, Switches.Select(s => $"  {(s.Flag + " " + s.Argument).PadRight(width)} {s.Help}"));
    }

    /// <summary>Binds and validates the options; throws <see cref="ServerStartupException"/> when they are bad.</summary>
    public static RavenLiteServerOptions Load(IConfiguration configuration)
    {
        RavenLiteServerOptions options;
        try
        {
            var section = configuration.GetSection(Section);
            options = section.Get<RavenLiteServerOptions>() ?? new RavenLiteServerOptions();
            var database = section.Get<DocumentDatabaseOptions>() ?? options.Database;
            // Bound by reflection, a required setting that is absent stays null: the default folder, as documented.
            if (database.DataDirectory is null)
                database.DataDirectory = "./data";
            options.Database = database;
        }
        catch (InvalidOperationException ex)
        {
            // The binder's message names the setting and the type it wanted, e.g. "... 'RavenLite:Port' to type 'System.Int32'."
            throw new ServerStartupException($"Invalid configuration: {ex.Message}", ServerStartupException.ConfigurationExitCode, ex);
        }
        // Host-level URLs (ASPNETCORE_URLS, "Urls" in appsettings) are honoured when RavenLite:Urls is not set.
        if (string.IsNullOrWhiteSpace(options.Urls) && configuration["urls"] is { Length: > 0 } hostUrls)
            options.Urls = hostUrls;
        // Seconds on the command line, a TimeSpan on the database options.
        if (options.ExpiryIntervalSeconds is { } expiry and >= 0 and <= 86_400)
            options.Database.ExpiryInterval = TimeSpan.FromSeconds(expiry);
        options.Validate();
        options.Database.DataDirectory = Path.GetFullPath(options.Database.DataDirectory);
        options.BackupDirectory = Path.GetFullPath(string.IsNullOrWhiteSpace(options.BackupDirectory)
            ? Path.TrimEndingDirectorySeparator(options.Database.DataDirectory) + "-backups"
            : options.BackupDirectory);
        return options;
    }

    /// <summary>A database option's refusal with the setting's switch named: <c>CacheSizeMb (--cache-size-mb): ...</c>.</summary>
    public static string WithSwitchName(ArgumentException exception)
    {
        var message = Errors.ArgumentMessage.Of(exception);
        var name = exception.ParamName;
        var flag = Switches.FirstOrDefault(s => s.Setting == name)?.Flag;
        return name is null ? message : flag is null ? $"{name}: {message}" : $"{name} ({flag}): {message}";
    }
}

/// <summary>A command-line switch: <paramref name="Flag"/> sets <paramref name="Setting"/> of the <c>RavenLite</c> section.</summary>
internal sealed record ServerSwitch(string Flag, string Setting, string Argument, string Help);
