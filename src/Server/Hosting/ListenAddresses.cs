using System.Net;

namespace RavenLite.Server.Hosting;

/// <summary>Decides where the server listens and enforces "beyond loopback only with an API key".</summary>
internal static class ListenAddresses
{
    /// <summary>The URLs to listen on; throws <see cref="ServerStartupException"/> for an unsafe or unreadable binding.</summary>
    public static string[] Resolve(RavenLiteServerOptions options)
    {
        var urls = string.IsNullOrWhiteSpace(options.Urls)
            ? [$"http://127.0.0.1:{options.Port}"]
            : options.Urls.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (urls.Length == 0)
            throw Refuse("Urls (--urls) names no address.");
        var exposed = urls.Where(url => !IsLoopback(url)).ToArray();
        if (exposed.Length > 0 && !options.Keys.HasKeys)
            throw Refuse(
                $"Refusing to listen on {string.Join(", ", exposed)} without an API key: every address other than " +
                "loopback (127.0.0.1, [::1], localhost) requires one. Pass --api-key <key> (or set RavenLite__ApiKey), " +
                "or listen on loopback only.");
        return urls;
    }

    /// <summary>True when <paramref name="url"/> listens on a loopback address only.</summary>
    public static bool IsLoopback(string url)
    {
        var host = HostOf(url);
        if (host.Equals("localhost", StringComparison.OrdinalIgnoreCase))
            return true;
        return IPAddress.TryParse(host, out var address) && IPAddress.IsLoopback(address);
    }

    /// <summary>The host part of a Kestrel URL such as <c>http://[::1]:80/base</c> or <c>http://*:8080</c>.</summary>
    private static string HostOf(string url)
    {
        var schemeEnd = url.IndexOf("://", StringComparison.Ordinal);
        if (schemeEnd < 0)
            throw Refuse($"'{url}' is not a URL such as http://127.0.0.1:8080.");
        var authority = url[(schemeEnd + 3)..];
        var slash = authority.IndexOf('/', StringComparison.Ordinal);
        if (slash >= 0)
            authority = authority[..slash];
        if (authority.StartsWith('['))
        {
            var close = authority.IndexOf(']', StringComparison.Ordinal);
            return close < 0 ? authority : authority[1..close];
        }
        var colon = authority.LastIndexOf(':');
        return colon < 0 ? authority : authority[..colon];
    }

    private static ServerStartupException Refuse(string message) =>
        new(message, ServerStartupException.ConfigurationExitCode);
}
