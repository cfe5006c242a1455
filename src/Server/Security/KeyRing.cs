using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;

namespace RavenLite.Server.Security;

/// <summary>
/// The API keys the server accepts, each with its scope: <c>--api-key</c> (admin), the <c>RavenLite:ApiKeys</c> list
/// (appsettings.json, or <c>RavenLite__ApiKeys__0__Key</c> / <c>__Scope</c> in the environment, so no key need be on
/// the command line, where <c>ps</c> shows it), and <c>--api-keys-file</c>, a file of <c>&lt;scope&gt; &lt;key&gt;</c> lines.
/// Keys are kept as SHA-256 hashes and compared in constant time. <see cref="Reload"/> reads them again (on SIGHUP or
/// <c>POST /admin/keys/reload</c>), so keys are added, revoked or rescoped in the file without a restart. A file line
/// <c>&lt;scope&gt; certificate:&lt;SHA-256 thumbprint&gt;</c> gives that scope to a TLS client certificate instead of a key
/// (<see cref="MatchCertificate"/>).
/// </summary>
internal sealed class KeyRing
{
    private readonly RavenLiteServerOptions _options;
    private readonly Lock _reloading = new();

    // Replaced whole by a reload; a request reads one array or the other, never half of each.
    private volatile (byte[] Hash, ApiKeyScope Scope, bool Certificate)[] _keys;

    private KeyRing(RavenLiteServerOptions options, (byte[] Hash, ApiKeyScope Scope, bool Certificate)[] keys)
    {
        _options = options;
        _keys = keys;
    }

    /// <summary>Whether any key is configured (then every request needs one).</summary>
    public bool HasKeys => _keys.Length > 0;

    /// <summary>How many keys of each scope, for the start-up log line.</summary>
    public string Describe()
    {
        var keys = _keys;
        if (keys.Length == 0)
            return "not set (loopback only)";
        static string Count(IEnumerable<(byte[] Hash, ApiKeyScope Scope, bool Certificate)> some, string suffix) =>
            string.Join(", ", some.GroupBy(k => k.Scope).OrderBy(g => g.Key).Select(g => $"{g.Count()} {g.Key.ToString().ToLowerInvariant()}{suffix}"));
        var certificates = keys.Where(k => k.Certificate).ToList();
        var apiKeys = Count(keys.Where(k => !k.Certificate), "");
        return certificates.Count == 0 ? apiKeys : $"{apiKeys}{(apiKeys.Length > 0 ? "; " : "")}{Count(certificates, " certificate")}";
    }

    /// <summary>Reads the keys from the options; throws <see cref="ArgumentException"/> naming a bad one.</summary>
    public static KeyRing Load(RavenLiteServerOptions options) => new(options, Read(options));

    /// <summary>
    /// Reads the keys again: the keys file as it is now, with <c>--api-key</c> and the configured list as they were at
    /// the start. When the new set is bad (a short key, a malformed line, one key with two scopes, an unreadable file) or
    /// would leave no key where there were keys (which would open the server to anyone on loopback), the current keys
    /// stay and <see cref="ArgumentException"/> says why. Returns <see cref="Describe"/> of the keys now in force.
    /// </summary>
    public string Reload()
    {
        lock (_reloading)
        {
            var fresh = Read(_options);
            if (fresh.Length == 0 && _keys.Length > 0)
                throw new ArgumentException("The reload found no key; the current keys stay (a server started with keys never runs without them).");
            _keys = fresh;
            return Describe();
        }
    }

    private static (byte[] Hash, ApiKeyScope Scope, bool Certificate)[] Read(RavenLiteServerOptions options)
    {
        var keys = new List<(string Key, ApiKeyScope Scope, string From)>();
        if (!string.IsNullOrEmpty(options.ApiKey))
            keys.Add((options.ApiKey, ApiKeyScope.Admin, "ApiKey (--api-key)"));
        for (var i = 0; i < options.ApiKeys.Count; i++)
            keys.Add((options.ApiKeys[i].Key, options.ApiKeys[i].Scope, $"ApiKeys:{i}"));
        if (!string.IsNullOrWhiteSpace(options.ApiKeysFile))
            keys.AddRange(ReadFile(options.ApiKeysFile));
        foreach (var (key, _, from) in keys)
        {
            if (key is not null && key.StartsWith(CertificatePrefix, StringComparison.OrdinalIgnoreCase))
            {
                if (Thumbprint(key) is null)
                    throw new ArgumentException($"{from}: a client certificate is named by its SHA-256 thumbprint, 64 hex digits: {CertificatePrefix}<thumbprint>.");
                continue;
            }
            if (key is null || key.Trim().Length < RavenLiteServerOptions.MinimumApiKeyLength)
                throw new ArgumentException($"{from}: an API key must be at least {RavenLiteServerOptions.MinimumApiKeyLength} characters.");
        }
        var conflicting = keys.GroupBy(k => k.Key, StringComparer.Ordinal).FirstOrDefault(g => g.Select(k => k.Scope).Distinct().Count() > 1);
        if (conflicting is not null)
            throw new ArgumentException($"{string.Join(" and ", conflicting.Select(k => k.From))} give one key two scopes.");
        return [.. keys.Select(k => Thumbprint(k.Key) is { } thumbprint ? (Hash(thumbprint), k.Scope, true) : (Hash(k.Key), k.Scope, false))];
    }

    /// <summary>The scope of <paramref name="candidate"/>, or null when it is no key of this server.</summary>
    public ApiKeyScope? Match(string candidate)
    {
        var hash = Hash(candidate);
        var keys = _keys;
        ApiKeyScope? found = null;
        // Every key is compared, so the time says nothing about which one (or how many) there are.
        foreach (var (expected, scope, certificate) in keys)
        {
            if (CryptographicOperations.FixedTimeEquals(hash, expected) && !certificate)
                found = scope;
        }
        return found;
    }

    /// <summary>Whether any client certificate is named (then Kestrel asks https clients for one).</summary>
    public bool HasCertificates => _keys.Any(k => k.Certificate);

    /// <summary>
    /// The scope of a TLS client certificate named in the keys file by its SHA-256 thumbprint, or null when it is not
    /// named or is outside its validity period. The certificate is pinned: no chain or authority is trusted.
    /// </summary>
    public ApiKeyScope? MatchCertificate(X509Certificate2 certificate, DateTimeOffset now)
    {
        if (now < certificate.NotBefore.ToUniversalTime() || now > certificate.NotAfter.ToUniversalTime())
            return null;
        var hash = Hash(certificate.GetCertHashString(HashAlgorithmName.SHA256));
        ApiKeyScope? found = null;
        foreach (var (expected, scope, isCertificate) in _keys)
        {
            if (isCertificate && CryptographicOperations.FixedTimeEquals(hash, expected))
                found = scope;
        }
        return found;
    }

    private const string CertificatePrefix = "certificate:";

    /// <summary>The upper-case hex thumbprint of a <c>certificate:</c> entry (colons and spaces allowed), or null.</summary>
    private static string? Thumbprint(string? entry)
    {
        if (entry is null || !entry.StartsWith(CertificatePrefix, StringComparison.OrdinalIgnoreCase))
            return null;
        var hex = string.Concat(entry[CertificatePrefix.Length..].Where(c => c is not (':' or ' '))).ToUpperInvariant();
        return hex.Length == 64 && hex.All(char.IsAsciiHexDigit) ? hex : null;
    }

    private static IEnumerable<(string Key, ApiKeyScope Scope, string From)> ReadFile(string path)
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new ArgumentException($"ApiKeysFile (--api-keys-file): cannot read {path}: {ex.Message}", ex);
        }
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].Trim();
            if (line.Length == 0 || line.StartsWith('#'))
                continue;
            var parts = line.Split((char[]?)null, 2, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            var from = $"ApiKeysFile (--api-keys-file) line {i + 1}";
            if (parts.Length != 2 || !Enum.TryParse<ApiKeyScope>(parts[0], ignoreCase: true, out var scope) || !Enum.IsDefined(scope))
                throw new ArgumentException($"{from}: expected '<scope> <key>' with scope read, write or admin.");
            yield return (parts[1], scope, from);
        }
    }

    private static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));
}
