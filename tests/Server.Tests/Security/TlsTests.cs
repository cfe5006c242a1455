using System.Diagnostics;
using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Security;

/// <summary>
/// Issue 30: TLS as a server option (<c>--urls https://... --certificate</c>), on a certificate generated here, reached by
/// HttpClient (and curl when it is installed); an https URL without a certificate is a clear error with exit code 2.
/// </summary>
public sealed class TlsTests : IDisposable
{
    private static readonly string[] s_curls = ["/usr/bin/curl", "/bin/curl"];

    private readonly string _folder = Path.Combine(Path.GetTempPath(), "ravenlite-server-tests", "tls-" + Guid.NewGuid().ToString("N"));
    private readonly X509Certificate2 _certificate;

    public TlsTests()
    {
        Directory.CreateDirectory(_folder);
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        var now = DateTimeOffset.UtcNow;
        _certificate = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));
        File.WriteAllText(CertificatePem, _certificate.ExportCertificatePem());
        File.WriteAllText(KeyPem, key.ExportPkcs8PrivateKeyPem());
        File.WriteAllBytes(Pfx, _certificate.Export(X509ContentType.Pkcs12, "pfx-password"));
    }

    private string CertificatePem => Path.Combine(_folder, "cert.pem");

    private string KeyPem => Path.Combine(_folder, "key.pem");

    private string Pfx => Path.Combine(_folder, "server.pfx");

    public void Dispose()
    {
        _certificate.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    /// <summary>A client that trusts exactly the generated certificate.</summary>
    private HttpClient TrustingClient(Uri address)
    {
        var handler = new SocketsHttpHandler
        {
            SslOptions = new SslClientAuthenticationOptions
            {
                RemoteCertificateValidationCallback = (_, certificate, _, _) =>
                    certificate is not null && certificate.GetCertHashString() == _certificate.GetCertHashString(),
            },
        };
        return new HttpClient(handler) { BaseAddress = address, Timeout = TimeSpan.FromSeconds(30) };
    }

    [Fact]
    public async Task A_server_on_a_PEM_certificate_and_key_answers_over_https()
    {
        await using var server = await TestServer.StartAsync(["--urls", "https://127.0.0.1:0", "--certificate", CertificatePem, "--certificate-key", KeyPem]);
        Assert.Equal("https", server.Address.Scheme);
        using var client = TrustingClient(server.Address);

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.PutAsync("/docs/tls/1", TestServer.Json("""{"a":1}"""))).StatusCode);
        Assert.Equal("""{"a":1}""", await client.GetStringAsync("/docs/tls/1"));
        // A client that does not trust it is refused by its own TLS check: the connection is encrypted with this certificate.
        using var untrusting = new HttpClient { BaseAddress = server.Address };
        await Assert.ThrowsAsync<HttpRequestException>(() => untrusting.GetAsync("/health"));
        await AssertCurlAnswersAsync(server.Address);
    }

    [Fact]
    public async Task A_server_on_a_PFX_with_its_password_from_configuration_answers_over_https()
    {
        await using var server = await TestServer.StartAsync(["--urls", "https://127.0.0.1:0", "--certificate", Pfx,
            "--RavenLite:CertificatePassword=pfx-password"]);
        using var client = TrustingClient(server.Address);

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health")).StatusCode);
    }

    [Theory]
    [InlineData(new[] { "--urls", "https://127.0.0.1:0" }, "https://127.0.0.1:0 needs a certificate")]
    [InlineData(new[] { "--urls", "http://127.0.0.1:0", "--certificate", "cert.pem", "--certificate-key", "key.pem" }, "no listen URL is https://")]
    [InlineData(new[] { "--urls", "https://127.0.0.1:0", "--certificate", "cert.pem" }, "a PEM certificate needs its key")]
    [InlineData(new[] { "--urls", "https://127.0.0.1:0", "--certificate", "server.pfx", "--RavenLite:CertificatePassword=wrong" }, "Cannot use the certificate")]
    [InlineData(new[] { "--urls", "https://127.0.0.1:0", "--certificate", "missing.pem", "--certificate-key", "key.pem" }, "Cannot use the certificate")]
    public void Https_without_a_usable_certificate_refuses_to_start_with_exit_code_2(string[] arguments, string expected)
    {
        var args = arguments.Select(a => a.EndsWith(".pem", StringComparison.Ordinal) || a.EndsWith(".pfx", StringComparison.Ordinal) ? Path.Combine(_folder, a) : a);

        var ex = Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), .. args]));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        Assert.Equal(ServerStartupException.ConfigurationExitCode, ex.ExitCode);
    }

    private async Task AssertCurlAnswersAsync(Uri address)
    {
        var curl = s_curls.FirstOrDefault(File.Exists);
        if (curl is null)
            return; // curl is not installed here; HttpClient above proved the same
        using var process = Process.Start(new ProcessStartInfo(curl)
        {
            ArgumentList = { "--silent", "--show-error", "--cacert", CertificatePem, new Uri(address, "/health").ToString() },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var output = await process.StandardOutput.ReadToEndAsync();
        var error = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, $"curl failed ({process.ExitCode}): {error}");
        Assert.Contains("\"Status\"", output, StringComparison.OrdinalIgnoreCase);
    }
}
