namespace RavenLite.Server.Hosting;

/// <summary>The server's log messages (source-generated, so a disabled level costs nothing).</summary>
internal static partial class ServerLog
{
    [LoggerMessage(1, LogLevel.Debug, "{Method} {Path} -> {StatusCode} in {ElapsedMs:0.0} ms")]
    public static partial void Request(ILogger logger, string method, PathString path, int statusCode, double elapsedMs);

    [LoggerMessage(2, LogLevel.Information, "{Method} {Path} refused with {StatusCode}: {Message}")]
    public static partial void RequestRefused(ILogger logger, string method, PathString path, int statusCode, string message);

    [LoggerMessage(3, LogLevel.Error, "{Method} {Path} failed with an unexpected error")]
    public static partial void UnexpectedError(ILogger logger, Exception exception, string method, PathString path);

    [LoggerMessage(4, LogLevel.Debug, "{Method} {Path} was aborted by the client")]
    public static partial void RequestAborted(ILogger logger, string method, PathString path);

    [LoggerMessage(5, LogLevel.Information, "RavenLite serving the {Engine} database in {DataDirectory} on {Urls}; API key {ApiKeyState}")]
    public static partial void Started(ILogger logger, string engine, string dataDirectory, string urls, string apiKeyState);

    [LoggerMessage(6, LogLevel.Information, "Database in {DataDirectory} closed")]
    public static partial void DatabaseClosed(ILogger logger, string dataDirectory);

    [LoggerMessage(7, LogLevel.Information, "Backup into {Folder} finished: {Documents} documents up to etag {LastEtag}")]
    public static partial void BackupFinished(ILogger logger, string folder, long lastEtag, long documents);

    [LoggerMessage(8, LogLevel.Error, "Backup into {Folder} failed")]
    public static partial void BackupFailed(ILogger logger, Exception exception, string folder);

    [LoggerMessage(9, LogLevel.Warning, "{Message}")]
    public static partial void DatabaseMessage(ILogger logger, string message);

    [LoggerMessage(10, LogLevel.Information, "API keys reloaded: {Keys}")]
    public static partial void KeysReloaded(ILogger logger, string keys);

    [LoggerMessage(11, LogLevel.Warning, "API keys not reloaded, the current ones stay: {Reason}")]
    public static partial void KeysReloadFailed(ILogger logger, string reason);
}
