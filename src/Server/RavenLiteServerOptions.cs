using RavenLite.Storage;

namespace RavenLite.Server;

/// <summary>
/// The server's settings, bound from the <c>RavenLite</c> configuration section: appsettings.json,
/// environment variables (<c>RavenLite__Port=9000</c>) and the command line (<c>--port 9000</c>).
/// </summary>
internal sealed class RavenLiteServerOptions
{
    /// <summary>The configuration section the options are bound from.</summary>
    public const string SectionName = "RavenLite";

    /// <summary>The folder holding the database (relative paths are resolved against the working directory).</summary>
    public string DataDirectory { get; set; } = "./data";

    /// <summary>The storage engine: <c>Lmdb</c> (default), <c>Esent</c> (Windows only) or <c>Postgres</c>.</summary>
    public StorageEngineKind Engine { get; set; } = StorageEngineKind.Lmdb;

    /// <summary>
    /// PostgreSQL's connection string when <see cref="Engine"/> is <c>Postgres</c> (several servers may share one
    /// database: docs/scaling.md). Never logged: it may hold a password.
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>
    /// The document cache's size limit in MiB; 0 turns the cache off. Unset: the database's default (a sixteenth
    /// of the memory the process may use, at most 1 GiB).
    /// </summary>
    public long? CacheSizeMb { get; set; }

    /// <summary>
    /// The query response cache's size limit in MiB (default 64); 0 turns it off. It keeps the bodies of the last
    /// non-stale query responses, so an unchanged query is answered without running it (docs/http-api.md).
    /// </summary>
    public long QueryCacheMb { get; set; } = 64;

    /// <summary>The loopback port to listen on when <see cref="Urls"/> is not set.</summary>
    public int Port { get; set; } = 8080;

    /// <summary>
    /// Addresses to listen on, separated by <c>;</c> (e.g. <c>http://0.0.0.0:8080</c>). When empty, the server
    /// listens on <c>http://127.0.0.1:{Port}</c>. Any non-loopback address requires <see cref="ApiKey"/>.
    /// </summary>
    public string? Urls { get; set; }

    /// <summary>
    /// The key every request must carry in <c>X-Api-Key</c>. Optional on loopback; required (at least
    /// <see cref="MinimumApiKeyLength"/> characters) to listen anywhere else.
    /// </summary>
    public string? ApiKey { get; set; }

    /// <summary>
    /// Host names (or addresses) served besides the loopback ones, separated by <c>;</c> or <c>,</c>; <c>*</c> allows any.
    /// Requests whose Host header is not one of them get 400, which stops DNS rebinding. With an API key and no list,
    /// any Host is served.
    /// </summary>
    public string? AllowedHosts { get; set; }

    /// <summary>
    /// Web origins (<c>http://app.example:3000</c>) allowed to call the server from a browser, separated by <c>;</c>
    /// or <c>,</c>; they get CORS answers. Requests from any other origin get 403.
    /// </summary>
    public string? CorsOrigins { get; set; }

    /// <summary>The browser rules parsed from <see cref="AllowedHosts"/>, <see cref="CorsOrigins"/> and <see cref="ApiKey"/>.</summary>
    public Security.BrowserSettings Browser => Security.BrowserSettings.Parse(AllowedHosts, CorsOrigins, ApiKey is not null);

    /// <summary>The largest request body accepted, in bytes (default 32 MiB); larger bodies get 413.</summary>
    public long MaxRequestBodyBytes { get; set; } = 32L * 1024 * 1024;

    /// <summary>The page size of <c>GET /docs</c> when the request names none.</summary>
    public int DefaultPageSize { get; set; } = 128;

    /// <summary>The largest page <c>GET /docs</c> returns; larger requests are clamped, and the response says so.</summary>
    public int MaxPageSize { get; set; } = 1024;

    /// <summary>The most keys one <c>POST /queries</c> may ask for; more get 400.</summary>
    public int MaxMultiGetKeys { get; set; } = 1024;

    /// <summary>The shortest API key accepted.</summary>
    public const int MinimumApiKeyLength = 16;

    /// <summary>Throws <see cref="ServerStartupException"/> naming the first bad setting.</summary>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(DataDirectory))
            throw Invalid("DataDirectory (--data-dir) must name a folder.");
        if (!Enum.IsDefined(Engine))
            throw Invalid($"Engine (--engine) must be Lmdb, Esent or Postgres, not {Engine}.");
        if (Engine == StorageEngineKind.Postgres && string.IsNullOrWhiteSpace(ConnectionString))
            throw Invalid("Engine Postgres needs ConnectionString (--connection-string).");
        if (CacheSizeMb is < 0 or > long.MaxValue / (1024 * 1024))
            throw Invalid($"CacheSizeMb (--cache-size-mb) must be a size in MiB, or 0 to turn the cache off; got {CacheSizeMb}.");
        if (QueryCacheMb is < 0 or > 64 * 1024)
            throw Invalid($"QueryCacheMb (--query-cache-mb) must be a size in MiB up to 65536, or 0 to turn the query cache off; got {QueryCacheMb}.");
        if (Port is < 0 or > 65535)
            throw Invalid($"Port (--port) must be between 0 and 65535, not {Port}.");
        if (ApiKey is not null && ApiKey.Trim().Length < MinimumApiKeyLength)
            throw Invalid($"ApiKey (--api-key) must be at least {MinimumApiKeyLength} characters.");
        if (MaxRequestBodyBytes < 1024)
            throw Invalid($"MaxRequestBodyBytes must be at least 1024, not {MaxRequestBodyBytes}.");
        if (DefaultPageSize < 1 || MaxPageSize < DefaultPageSize)
            throw Invalid($"Page sizes must satisfy 1 <= DefaultPageSize ({DefaultPageSize}) <= MaxPageSize ({MaxPageSize}).");
        try
        {
            _ = Browser;
        }
        catch (ArgumentException ex)
        {
            throw Invalid(ex.Message);
        }
        if (MaxMultiGetKeys < 1)
            throw Invalid($"MaxMultiGetKeys must be at least 1, not {MaxMultiGetKeys}.");
    }

    private static ServerStartupException Invalid(string message) =>
        new($"Invalid configuration: {message}", ServerStartupException.ConfigurationExitCode);
}
