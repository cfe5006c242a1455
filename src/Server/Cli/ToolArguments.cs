namespace RavenLite.Server.Cli;

/// <summary>What the tool verbs' command lines have in common.</summary>
internal static class ToolArguments
{
    /// <summary>The server address given with <c>--url</c>.</summary>
    /// <exception cref="ArgumentException">It is not an absolute http:// or https:// address.</exception>
    public static Uri ServerUrl(string url) =>
        Uri.TryCreate(url, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri : throw new ArgumentException($"--url must be an http:// or https:// address, not '{url}'.");
}
