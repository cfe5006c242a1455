namespace RavenLite.Server.Tools;

/// <summary>What the tool verbs' command lines have in common.</summary>
internal static class ToolArguments
{
    /// <summary>The value after the switch at <paramref name="i"/>, which moves past it.</summary>
    /// <exception cref="ArgumentException">The switch is the last argument.</exception>
    public static string Value(string[] args, ref int i) =>
        i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value.");

    /// <summary>The server address given with <c>--url</c>.</summary>
    /// <exception cref="ArgumentException">It is not an absolute http:// or https:// address.</exception>
    public static Uri ServerUrl(string url) =>
        Uri.TryCreate(url, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri : throw new ArgumentException($"--url must be an http:// or https:// address, not '{url}'.");
}
