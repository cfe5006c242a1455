using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace RavenLite.Server.Hosting;

/// <summary>
/// TLS as a server option: the certificate for <c>https://</c> listen URLs, from a PEM certificate and key
/// (<c>--certificate cert.pem --certificate-key key.pem</c>) or a PFX/PKCS#12 file (<c>--certificate server.pfx</c>) whose
/// password comes from <c>RavenLite__CertificatePassword</c> in the environment, never the command line. An https URL
/// without a certificate, or a certificate that cannot be read, stops the start with a sentence and exit code 2.
/// </summary>
internal static class TlsCertificate
{
    /// <summary>The certificate the options name, or null when none is; checks it against the listen URLs.</summary>
    /// <exception cref="ServerStartupException">An https URL without a certificate, or a certificate that cannot be used.</exception>
    public static X509Certificate2? Load(RavenLiteServerOptions options, IReadOnlyList<string> urls)
    {
        var https = urls.Where(url => url.StartsWith("https://", StringComparison.OrdinalIgnoreCase)).ToList();
        if (string.IsNullOrWhiteSpace(options.Certificate))
        {
            if (https.Count > 0)
            {
                throw Invalid($"{string.Join(", ", https)} needs a certificate: give --certificate <cert.pem> --certificate-key <key.pem>, " +
                    "or --certificate <server.pfx> with its password in RavenLite__CertificatePassword.");
            }
            return null;
        }
        if (https.Count == 0)
            throw Invalid("--certificate is given, but no listen URL is https://: give --urls https://<address>:<port>.");
        var path = options.Certificate;
        try
        {
            X509Certificate2 certificate;
            if (!string.IsNullOrWhiteSpace(options.CertificateKey))
            {
                using var pem = X509Certificate2.CreateFromPemFile(path, options.CertificateKey);
                // A key read from PEM is ephemeral; exported and loaded as PKCS#12, it works with SslStream everywhere.
                certificate = X509CertificateLoader.LoadPkcs12(pem.Export(X509ContentType.Pkcs12), null);
            }
            else if (Path.GetExtension(path).ToLowerInvariant() is ".pfx" or ".p12")
            {
                certificate = X509CertificateLoader.LoadPkcs12FromFile(path, options.CertificatePassword);
            }
            else
            {
                throw Invalid($"--certificate {path}: a PEM certificate needs its key (--certificate-key <key.pem>); a PKCS#12 file ends in .pfx or .p12.");
            }
            if (!certificate.HasPrivateKey)
            {
                certificate.Dispose();
                throw Invalid($"--certificate {path} has no private key.");
            }
            return certificate;
        }
        catch (Exception ex) when (ex is CryptographicException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            throw Invalid($"Cannot use the certificate {path}: {ex.Message}");
        }
    }

    private static ServerStartupException Invalid(string message) =>
        new($"Invalid configuration: {message}", ServerStartupException.ConfigurationExitCode);
}
