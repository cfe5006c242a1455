using System.CommandLine;
using RavenLite.Database;

namespace RavenLite.Server.Cli;

/// <summary>
/// The one option table of <c>ravenlite</c>: the server's switches (each sets a setting of the <c>RavenLite</c>
/// configuration section, the same name as in appsettings.json and in <c>RavenLite__*</c> environment variables) and
/// the tool verbs' options. A verb that needs <c>--data-dir</c> adds the same option object the server reads, so the
/// flag, its argument name and its help line are written once; help is generated from these objects.
/// </summary>
internal static class CliOptions
{
    public static readonly CliOption DataDir = new("--data-dir", "dir", "database folder (server default ./data)", nameof(DocumentDatabaseOptions.DataDirectory));
    public static readonly CliOption Engine = new("--engine", "engine", "Lmdb (default), Esent (Windows) or Postgres", nameof(DocumentDatabaseOptions.Engine));
    public static readonly CliOption ConnectionString = new("--connection-string", "string", "PostgreSQL connection string for --engine postgres (never logged)", nameof(DocumentDatabaseOptions.ConnectionString));
    public static readonly CliOption ApiKey = new("--api-key", "key", "an admin key; with any key, requests must send one in X-Api-Key (tool verbs with --url send it)", nameof(RavenLiteServerOptions.ApiKey));

    /// <summary>A running server's address, for the tool verbs that work over HTTP; the server itself has no such setting.</summary>
    public static readonly CliOption Url = new("--url", "url", "a running server's http:// or https:// address", setting: null);

    /// <summary>The server's switches, in the order help and the README list them.</summary>
    public static IReadOnlyList<CliOption> Server { get; } =
    [
        DataDir,
        Engine,
        ConnectionString,
        new("--map-size", "bytes", "initial LMDB map size (default 4 GiB; doubles when full)", nameof(DocumentDatabaseOptions.MapSize)),
        new("--cache-size-mb", "mb", "document cache limit; 0 turns it off", nameof(DocumentDatabaseOptions.CacheSizeMb)),
        new("--backup-dir", "dir", "where POST /admin/backup writes (default <data-dir>-backups)", nameof(RavenLiteServerOptions.BackupDirectory)),
        new("--port", "port", "port on 127.0.0.1 (default 8080)", nameof(RavenLiteServerOptions.Port)),
        new("--urls", "urls", "listen addresses; anything but loopback needs --api-key", nameof(RavenLiteServerOptions.Urls)),
        new("--certificate", "file", "TLS certificate for https:// URLs: PEM (with --certificate-key) or .pfx", nameof(RavenLiteServerOptions.Certificate)),
        new("--certificate-key", "file", "the PEM private key of --certificate (a .pfx's password: RavenLite__CertificatePassword)", nameof(RavenLiteServerOptions.CertificateKey)),
        new("--otlp-endpoint", "url", "export metrics and traces over OTLP (off when unset)", nameof(RavenLiteServerOptions.OtlpEndpoint)),
        new("--prometheus", "bool", "serve metrics at /metrics for Prometheus (admin scope; default false)", nameof(RavenLiteServerOptions.Prometheus)),
        new("--query-cache-mb", "mb", "query response cache limit (default 64); 0 turns it off", nameof(RavenLiteServerOptions.QueryCacheMb)),
        new("--query-timeout", "seconds", "longest a query may run (default 5); then 503 query-timeout", nameof(RavenLiteServerOptions.QueryTimeout)),
        new("--expiry-interval-seconds", "seconds", "delete expired documents this often (default 0: off; they are never returned either way)", nameof(RavenLiteServerOptions.ExpiryIntervalSeconds)),
        new("--shutdown-timeout", "seconds", "how long stopping waits for in-flight requests (default 5)", nameof(RavenLiteServerOptions.ShutdownTimeout)),
        ApiKey,
        new("--api-keys-file", "file", "keys with scopes, one '<read|write|admin> <key>' a line", nameof(RavenLiteServerOptions.ApiKeysFile)),
        new("--allowed-hosts", "hosts", "Host names served besides loopback (; or , separated; * any)", nameof(RavenLiteServerOptions.AllowedHosts)),
        new("--cors-origins", "origins", "web origins allowed to call from a browser (; or , separated)", nameof(RavenLiteServerOptions.CorsOrigins)),
    ];
}

/// <summary>
/// An option of the table: a flag taking one value, its argument name and help line, and the server setting it sets
/// (null for a tool-only option). Values stay text: the configuration binder converts and validates server settings,
/// the verbs their own.
/// </summary>
internal sealed class CliOption : Option<string>
{
    public CliOption(string flag, string argument, string help, string? setting)
        : base(flag)
    {
        HelpName = argument;
        Description = help;
        Setting = setting;
    }

    /// <summary>The flag, e.g. <c>--data-dir</c>.</summary>
    public string Flag => Name;

    /// <summary>The argument as help and the README show it, e.g. <c>&lt;dir&gt;</c>.</summary>
    public string Argument => $"<{HelpName}>";

    /// <summary>The <c>RavenLite</c> setting the server binds this option to; null for a tool-only option.</summary>
    public string? Setting { get; }
}
