using System.Net;

namespace RavenLite.Server.Security;

/// <summary>
/// The parsed <c>--allowed-hosts</c> and <c>--cors-origins</c> settings: lists separated by <c>;</c> or <c>,</c>.
/// Hosts are names or IP addresses without a port (<c>*</c> allows any); origins are <c>scheme://host[:port]</c>.
/// </summary>
internal sealed class BrowserSettings
{
    private static readonly char[] Separators = [';', ','];

    private BrowserSettings(HashSet<string> hosts, HashSet<string> origins, bool hostCheck)
    {
        AllowedHosts = hosts;
        CorsOrigins = origins;
        ChecksHost = hostCheck;
    }

    /// <summary>Host names accepted besides the loopback ones, lower case.</summary>
    public IReadOnlySet<string> AllowedHosts { get; }

    /// <summary>Origins allowed to make cross-site requests, as <c>scheme://host[:port]</c> in lower case.</summary>
    public IReadOnlySet<string> CorsOrigins { get; }

    /// <summary>
    /// Whether the Host header is checked: always, unless an API key is set and no hosts were configured (clients
    /// of a server listening beyond loopback use its network names, and the key is what protects it).
    /// </summary>
    public bool ChecksHost { get; }

    /// <summary>Parses the settings; throws <see cref="ArgumentException"/> naming the option and the bad entry.</summary>
    public static BrowserSettings Parse(string? allowedHosts, string? corsOrigins, bool hasApiKey)
    {
        var hosts = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var host in Split(allowedHosts))
        {
            if (host != "*" && (host.Contains('/') || (host.Contains(':') && !host.StartsWith('[')) || Uri.CheckHostName(host.Trim('[', ']')) == UriHostNameType.Unknown))
                throw new ArgumentException($"AllowedHosts (--allowed-hosts) takes host names or addresses without a scheme or port; '{host}' is not one.");
            hosts.Add(host);
        }
        var origins = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var origin in Split(corsOrigins))
        {
            if (NormalizeOrigin(origin) is not { } normalized)
                throw new ArgumentException($"CorsOrigins (--cors-origins) takes origins such as http://app.example:3000 (a scheme, a host, an optional port, no path); '{origin}' is not one.");
            origins.Add(normalized);
        }
        return new BrowserSettings(hosts, origins, hostCheck: !hasApiKey || hosts.Count > 0);
    }

    /// <summary>Whether <paramref name="host"/> (the Host header without its port) may be served.</summary>
    public bool IsAllowedHost(string host)
    {
        if (host.Equals("localhost", StringComparison.OrdinalIgnoreCase))
            return true;
        if (IPAddress.TryParse(host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address))
            return true;
        return AllowedHosts.Contains("*") || AllowedHosts.Contains(host);
    }

    /// <summary><c>scheme://host[:port]</c> in lower case, or null when <paramref name="origin"/> is not an http(s) origin.</summary>
    public static string? NormalizeOrigin(string origin)
    {
        if (!Uri.TryCreate(origin, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https")
            || uri.AbsolutePath != "/" || uri.Query.Length > 0 || uri.Fragment.Length > 0 || uri.UserInfo.Length > 0
            || origin.TrimEnd('/').Length < origin.Length - 1)
            return null;
        return uri.GetLeftPart(UriPartial.Authority).ToLowerInvariant();
    }

    private static string[] Split(string? list) =>
        (list ?? "").Split(Separators, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
