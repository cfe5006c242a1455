namespace RavenLite.Server.Cli;

/// <summary>Opens the endpoint the options name: a database folder or a running server.</summary>
internal static class TransferEndpoints
{
    public static IDisposable Open(TransferOptions options) => options.Url is { } url
        ? new HttpEndpoint(url, options.ApiKey)
        : new EmbeddedEndpoint(options.DataDirectory!, options.Engine, options.ConnectionString, deferIndexing: !options.Export);
}
