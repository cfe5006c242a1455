using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>
/// Issue 30: client certificates as an optional way to authenticate. Over https, a request without an API key may
/// present a TLS client certificate that the keys file names by its SHA-256 thumbprint (<c>write certificate:...</c>);
/// it gets that line's scope. Certificates are generated here, self-signed: the thumbprint is pinned, no authority trusted.
/// </summary>
public sealed class ClientCertificateTests : IDisposable
{
    private const string AdminKey = "client-certificate-admin-key-0123456789";

    private readonly string _folder = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", "client-cert-" + Guid.NewGuid().ToString("N"));
    private readonly X509Certificate2 _server;
    private readonly X509Certificate2 _known;
    private readonly X509Certificate2 _unknown;
    private readonly X509Certificate2 _expired;

    public ClientCertificateTests()
    {
        Directory.CreateDirectory(_folder);
        var now = DateTimeOffset.UtcNow;
        using var serverKey = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", serverKey, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        _server = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));
        File.WriteAllText(Path.Combine(_folder, "cert.pem"), _server.ExportCertificatePem());
        File.WriteAllText(Path.Combine(_folder, "key.pem"), serverKey.ExportPkcs8PrivateKeyPem());
        _known = ClientCertificate("CN=known client", now.AddMinutes(-5), now.AddDays(1));
        _unknown = ClientCertificate("CN=unknown client", now.AddMinutes(-5), now.AddDays(1));
        _expired = ClientCertificate("CN=expired client", now.AddDays(-2), now.AddDays(-1));
        File.WriteAllLines(KeysFile, [
            $"write certificate:{_known.GetCertHashString(HashAlgorithmName.SHA256)}",
            // Colons between the bytes, as tools print thumbprints, are allowed.
            $"admin certificate:{Convert.ToHexString(_expired.GetCertHash(HashAlgorithmName.SHA256)).Chunk(2).Select(c => new string(c)).Aggregate((a, b) => a + ":" + b)}",
        ]);
    }

    private string KeysFile => Path.Combine(_folder, "keys.txt");

    public void Dispose()
    {
        foreach (var certificate in new[] { _server, _known, _unknown, _expired })
            certificate.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    private static X509Certificate2 ClientCertificate(string subject, DateTimeOffset from, DateTimeOffset to)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], critical: false)); // client authentication
        using var created = request.CreateSelfSigned(from, to);
        // Through PKCS#12, so the private key is one TLS can use on every platform.
        return X509CertificateLoader.LoadPkcs12(created.Export(X509ContentType.Pkcs12, "p"), "p");
    }

    private Task<TestServer> StartAsync() => TestServer.StartAsync(["--urls", "https://127.0.0.1:0",
        "--certificate", Path.Combine(_folder, "cert.pem"), "--certificate-key", Path.Combine(_folder, "key.pem"),
        "--api-key", AdminKey, "--api-keys-file", KeysFile, "--RavenLite:AuthFailuresPerMinute=1000"]);

    /// <summary>A client that trusts exactly the server's certificate and presents <paramref name="certificate"/>, if any.</summary>
    private HttpClient Client(Uri address, X509Certificate2? certificate)
    {
        var handler = new SocketsHttpHandler
        {
            SslOptions = new SslClientAuthenticationOptions
            {
                RemoteCertificateValidationCallback = (_, presented, _, _) => presented is not null && presented.GetCertHashString() == _server.GetCertHashString(),
                ClientCertificates = certificate is null ? null : new X509CertificateCollection { certificate },
                LocalCertificateSelectionCallback = certificate is null ? null : (_, _, _, _, _) => certificate,
            },
        };
        return new HttpClient(handler) { BaseAddress = address, Timeout = TimeSpan.FromSeconds(30) };
    }

    [Fact]
    public async Task A_named_client_certificate_authenticates_with_its_lines_scope()
    {
        await using var server = await StartAsync();
        using var client = Client(server.Address, _known);

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/stats")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.PutAsync("/docs/by-certificate/1", TestServer.Json("""{"a":1}"""))).StatusCode);
        var current = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync("/keys/current")).RootElement;
        Assert.Equal("write", current.GetProperty("Scope").GetString());
        var detail = await JsonAssert.ErrorAsync(await client.PutAsync("/indexes/ByCertificate", TestServer.Json("""{"Fields": [{"Name": "a", "Path": "a"}]}""")),
            HttpStatusCode.Forbidden, ErrorCodes.ScopeMissing);
        Assert.Contains("write scope", detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_or_expired_certificate_is_a_401_and_a_client_without_one_still_uses_keys()
    {
        await using var server = await StartAsync();
        using var unknown = Client(server.Address, _unknown);
        using var expired = Client(server.Address, _expired);
        using var none = Client(server.Address, null);

        await JsonAssert.ErrorAsync(await unknown.GetAsync("/stats"), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
        await JsonAssert.ErrorAsync(await expired.GetAsync("/stats"), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
        await JsonAssert.ErrorAsync(await none.GetAsync("/stats"), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
        using var withKey = new HttpRequestMessage(HttpMethod.Get, "/stats");
        withKey.Headers.Add("X-Api-Key", AdminKey);
        Assert.Equal(HttpStatusCode.OK, (await none.SendAsync(withKey)).StatusCode);
    }

    [Fact]
    public async Task A_thumbprint_sent_as_an_API_key_is_no_key()
    {
        await using var server = await StartAsync();
        using var none = Client(server.Address, null);
        using var request = new HttpRequestMessage(HttpMethod.Get, "/stats");
        request.Headers.Add("X-Api-Key", "certificate:" + _known.GetCertHashString(HashAlgorithmName.SHA256));

        await JsonAssert.ErrorAsync(await none.SendAsync(request), HttpStatusCode.Unauthorized, ErrorCodes.Unauthorized);
    }
}
