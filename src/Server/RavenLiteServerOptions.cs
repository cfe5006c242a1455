using RavenLite.Database;

namespace RavenLite.Server;

/// <summary>
/// The server's own settings, bound from the <c>RavenLite</c> configuration section: appsettings.json,
/// environment variables (<c>RavenLite__Port=9000</c>) and the command line (<c>--port 9000</c>). The database's
/// settings (folder, engine, map size, cache, page sizes) are bound from the same section into
/// <see cref="Database"/>, under the names <see cref="DocumentDatabaseOptions"/> gives them.
/// </summary>
internal sealed class RavenLiteServerOptions
{
    /// <summary>The configuration section the options are bound from.</summary>
    public const string SectionName = "RavenLite";

    /// <summary>
    /// Where <c>POST /admin/backup</c> writes backups (each in a folder of its own) and where <c>GET /admin/backups</c>
    /// finds them. Default: a folder beside the data folder, named after it with <c>-backups</c> (<c>./data-backups</c>).
    /// </summary>
    public string BackupDirectory { get; set; } = "";

    /// <summary>The database's settings, from the same configuration section.</summary>
    public DocumentDatabaseOptions Database { get; set; } = new() { DataDirectory = "./data" };

    /// <summary>
    /// The query response cache's size limit in MiB (default 64); 0 turns it off. It keeps the bodies of the last
    /// non-stale query responses, so an unchanged query is answered without running it (docs/http-api.md).
    /// </summary>
    public long QueryCacheMb { get; set; } = 64;

    /// <summary>
    /// The longest a query may run, in seconds (default 5; up to 3,600); a wait for non-stale results the query asks for
    /// comes on top. A query still running then is stopped and answered with 503 <c>query-timeout</c>; one whose client
    /// left, or running while the server stops, is stopped too.
    /// </summary>
    public double QueryTimeout { get; set; } = 5;

    /// <summary>
    /// How often the expiry task deletes documents whose <c>Raven-Expiration-Date</c> has passed, in seconds; 0 turns the
    /// task off (expired documents are still never returned). Null (the default): the database's default, off.
    /// </summary>
    public double? ExpiryIntervalSeconds { get; set; }

    /// <summary>
    /// How long a stopping server waits for in-flight requests before it cuts them off, in seconds (default 5). Queries
    /// are cancelled as soon as it starts stopping; <c>/changes</c> streams end.
    /// </summary>
    public double ShutdownTimeout { get; set; } = 5;

    /// <summary>
    /// The TLS certificate for <c>https://</c> listen URLs: a PEM certificate (with <see cref="CertificateKey"/>), or a
    /// PKCS#12 file (<c>.pfx</c>, <c>.p12</c>) whose password is <see cref="CertificatePassword"/>.
    /// </summary>
    public string? Certificate { get; set; }

    /// <summary>The PEM private key of <see cref="Certificate"/>.</summary>
    public string? CertificateKey { get; set; }

    /// <summary>The PKCS#12 file's password: set it in the environment (<c>RavenLite__CertificatePassword</c>), not on the command line.</summary>
    public string? CertificatePassword { get; set; }

    /// <summary>
    /// Where to send metrics and traces over OTLP (<c>http://collector:4317</c>; the protocol follows
    /// <c>OTEL_EXPORTER_OTLP_PROTOCOL</c>, gRPC by default). Unset: nothing is exported.
    /// </summary>
    public string? OtlpEndpoint { get; set; }

    /// <summary>Serve metrics for Prometheus to scrape at <c>/metrics</c> (admin scope when keys are configured). Default off.</summary>
    public bool Prometheus { get; set; }

    /// <summary>The loopback port to listen on when <see cref="Urls"/> is not set.</summary>
    public int Port { get; set; } = 8080;

    /// <summary>
    /// Addresses to listen on, separated by <c>;</c> (e.g. <c>http://0.0.0.0:8080</c>). When empty, the server
    /// listens on <c>http://127.0.0.1:{Port}</c>. Any non-loopback address requires <see cref="ApiKey"/>.
    /// </summary>
    public string? Urls { get; set; }

    /// <summary>
    /// An admin key (every scope). With any key configured (this, <see cref="ApiKeys"/> or <see cref="ApiKeysFile"/>),
    /// every request must carry one in <c>X-Api-Key</c>. Optional on loopback; a key is required (at least
    /// <see cref="MinimumApiKeyLength"/> characters) to listen anywhere else.
    /// </summary>
    public string? ApiKey { get; set; }

    /// <summary>
    /// Keys with scopes (read, write, admin): <c>RavenLite:ApiKeys:0:Key</c> and <c>RavenLite:ApiKeys:0:Scope</c> in
    /// appsettings.json, or <c>RavenLite__ApiKeys__0__Key</c> and <c>__Scope</c> in the environment.
    /// </summary>
    public List<Security.ScopedApiKey> ApiKeys { get; set; } = [];

    /// <summary>A file of keys, one <c>&lt;scope&gt; &lt;key&gt;</c> a line (<c>read</c>, <c>write</c> or <c>admin</c>; <c>#</c> comments).</summary>
    public string? ApiKeysFile { get; set; }

    private Security.KeyRing? _keys;

    /// <summary>The keys of <see cref="ApiKey"/>, <see cref="ApiKeys"/> and <see cref="ApiKeysFile"/>, read once.</summary>
    /// <exception cref="ArgumentException">A key is too short, a file line is malformed, or one key has two scopes.</exception>
    internal Security.KeyRing Keys => _keys ??= Security.KeyRing.Load(this);

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
    public Security.BrowserSettings Browser => Security.BrowserSettings.Parse(AllowedHosts, CorsOrigins, Keys.HasKeys);

    /// <summary>
    /// The largest request body accepted, in bytes; larger bodies get 413. Default 17 MiB: the document limit (16 MiB of
    /// BSON) and room for the JSON around it, so no body is read into memory only to be refused as a document too large.
    /// </summary>
    public long MaxRequestBodyBytes { get; set; } = 17L * 1024 * 1024;

    /// <summary>
    /// How many requests may hold a body over 1 MiB in memory at once (default 4); more wait their turn, up to 30 s, then
    /// get 503 <c>unavailable</c>. Bounds the memory concurrent large bodies take at about this many times
    /// <see cref="MaxRequestBodyBytes"/> and what parsing them costs.
    /// </summary>
    public int MaxConcurrentLargeBodies { get; set; } = 4;

    /// <summary>
    /// How many requests with a wrong or missing API key one client address may send in a minute (default 30); beyond
    /// that its requests get 429 <c>too-many-requests</c> until the minute is over.
    /// </summary>
    public int AuthFailuresPerMinute { get; set; } = 30;

    /// <summary>
    /// How many index queries, patch or delete by query requests, index definitions and backups one client address may
    /// send in a minute; beyond that those get 429 <c>too-many-requests</c> until the minute is over (other requests are
    /// served). 0, the default, sets no limit.
    /// </summary>
    public int ExpensiveRequestsPerMinute { get; set; }



    /// <summary>The most keys one <c>POST /queries</c> may ask for; more get 400.</summary>
    public int MaxMultiGetKeys { get; set; } = 1024;

    /// <summary>The <c>/changes</c> stream's buffer, slow-consumer and heartbeat settings (<c>RavenLite:Changes</c>).</summary>
    public Changes.ChangesFeedOptions Changes { get; set; } = new();

    /// <summary>The shortest API key accepted.</summary>
    public const int MinimumApiKeyLength = 16;

    /// <summary>Throws <see cref="ServerStartupException"/> naming the first bad setting.</summary>
    public void Validate()
    {
        try
        {
            Database.Validate();
        }
        catch (ArgumentException ex)
        {
            throw Invalid(Hosting.ServerConfiguration.WithSwitchName(ex));
        }
        if (QueryCacheMb is < 0 or > 64 * 1024)
            throw Invalid($"QueryCacheMb (--query-cache-mb) must be a size in MiB up to 65536, or 0 to turn the query cache off; got {QueryCacheMb}.");
        if (!(QueryTimeout > 0 && QueryTimeout <= 3600))
            throw Invalid($"QueryTimeout (--query-timeout) must be seconds, more than 0 and at most 3600; got {QueryTimeout}.");
        if (ExpiryIntervalSeconds is { } expiry && !(expiry >= 0 && expiry <= 86_400))
            throw Invalid($"ExpiryIntervalSeconds (--expiry-interval-seconds) must be seconds from 0 (off) to 86400; got {expiry}.");
        if (!(ShutdownTimeout >= 0 && ShutdownTimeout <= 300))
            throw Invalid($"ShutdownTimeout (--shutdown-timeout) must be seconds from 0 to 300; got {ShutdownTimeout}.");
        if (!string.IsNullOrWhiteSpace(OtlpEndpoint)
            && (!Uri.TryCreate(OtlpEndpoint, UriKind.Absolute, out var otlp) || otlp.Scheme is not ("http" or "https")))
            throw Invalid($"OtlpEndpoint (--otlp-endpoint) must be an http:// or https:// URL such as http://127.0.0.1:4317; got '{OtlpEndpoint}'.");
        if (Port is < 0 or > 65535)
            throw Invalid($"Port (--port) must be between 0 and 65535, not {Port}.");
        if (ApiKey is not null && ApiKey.Trim().Length < MinimumApiKeyLength)
            throw Invalid($"ApiKey (--api-key) must be at least {MinimumApiKeyLength} characters.");
        try
        {
            _ = Keys;
        }
        catch (ArgumentException ex)
        {
            throw Invalid(ex.Message);
        }
        if (AuthFailuresPerMinute < 1)
            throw Invalid($"AuthFailuresPerMinute must be at least 1, not {AuthFailuresPerMinute}.");
        if (ExpensiveRequestsPerMinute < 0)
            throw Invalid($"ExpensiveRequestsPerMinute must be 0 (no limit) or more, not {ExpensiveRequestsPerMinute}.");
        if (MaxRequestBodyBytes < 1024)
            throw Invalid($"MaxRequestBodyBytes must be at least 1024, not {MaxRequestBodyBytes}.");
        if (MaxConcurrentLargeBodies < 1)
            throw Invalid($"MaxConcurrentLargeBodies must be at least 1, not {MaxConcurrentLargeBodies}.");
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
        try
        {
            Changes.Validate();
        }
        catch (ArgumentException ex)
        {
            throw Invalid(Hosting.ServerConfiguration.WithSwitchName(ex));
        }
    }

    private static ServerStartupException Invalid(string message) =>
        new($"Invalid configuration: {message}", ServerStartupException.ConfigurationExitCode);
}
