using Microsoft.Extensions.Configuration;

namespace RavenLite.Server.Hosting;

/// <summary>Reads <see cref="RavenLiteServerOptions"/> from configuration, including the short command-line switches.</summary>
internal static class ServerConfiguration
{
    private const string Section = RavenLiteServerOptions.SectionName;

    /// <summary>Command-line switches and the settings they set.</summary>
    public static IDictionary<string, string> SwitchMappings => new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["--data-dir"] = $"{Section}:{nameof(RavenLiteServerOptions.DataDirectory)}",
        ["--port"] = $"{Section}:{nameof(RavenLiteServerOptions.Port)}",
        ["--urls"] = $"{Section}:{nameof(RavenLiteServerOptions.Urls)}",
        ["--engine"] = $"{Section}:{nameof(RavenLiteServerOptions.Engine)}",
        ["--connection-string"] = $"{Section}:{nameof(RavenLiteServerOptions.ConnectionString)}",
        ["--cache-size-mb"] = $"{Section}:{nameof(RavenLiteServerOptions.CacheSizeMb)}",
        ["--query-cache-mb"] = $"{Section}:{nameof(RavenLiteServerOptions.QueryCacheMb)}",
        ["--api-key"] = $"{Section}:{nameof(RavenLiteServerOptions.ApiKey)}",
        ["--allowed-hosts"] = $"{Section}:{nameof(RavenLiteServerOptions.AllowedHosts)}",
        ["--cors-origins"] = $"{Section}:{nameof(RavenLiteServerOptions.CorsOrigins)}",
    };

    /// <summary>Binds and validates the options; throws <see cref="ServerStartupException"/> when they are bad.</summary>
    public static RavenLiteServerOptions Load(IConfiguration configuration)
    {
        RavenLiteServerOptions options;
        try
        {
            options = configuration.GetSection(Section).Get<RavenLiteServerOptions>() ?? new RavenLiteServerOptions();
        }
        catch (InvalidOperationException ex)
        {
            // The binder's message names the setting and the type it wanted, e.g. "... 'RavenLite:Port' to type 'System.Int32'."
            throw new ServerStartupException($"Invalid configuration: {ex.Message}", ServerStartupException.ConfigurationExitCode, ex);
        }
        // Host-level URLs (ASPNETCORE_URLS, "Urls" in appsettings) are honoured when RavenLite:Urls is not set.
        if (string.IsNullOrWhiteSpace(options.Urls) && configuration["urls"] is { Length: > 0 } hostUrls)
            options.Urls = hostUrls;
        options.Validate();
        return options;
    }
}
