using Microsoft.Extensions.Configuration;
using RavenLite.Database;

namespace RavenLite.Server.Hosting;

/// <summary>
/// Reads <see cref="RavenLiteServerOptions"/> and its <see cref="DocumentDatabaseOptions"/> from the one <c>RavenLite</c>
/// configuration section, including the command-line switches, and validates them once.
/// </summary>
internal static class ServerConfiguration
{
    private const string Section = RavenLiteServerOptions.SectionName;

    /// <summary>Command-line switches and the settings they set: each switch is the setting's name in kebab case.</summary>
    public static IReadOnlyDictionary<string, string> Switches { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["--data-dir"] = nameof(DocumentDatabaseOptions.DataDirectory),
        ["--engine"] = nameof(DocumentDatabaseOptions.Engine),
        ["--map-size"] = nameof(DocumentDatabaseOptions.MapSize),
        ["--cache-size-mb"] = nameof(DocumentDatabaseOptions.CacheSizeMb),
        ["--port"] = nameof(RavenLiteServerOptions.Port),
        ["--urls"] = nameof(RavenLiteServerOptions.Urls),
        ["--query-cache-mb"] = nameof(RavenLiteServerOptions.QueryCacheMb),
        ["--api-key"] = nameof(RavenLiteServerOptions.ApiKey),
        ["--allowed-hosts"] = nameof(RavenLiteServerOptions.AllowedHosts),
        ["--cors-origins"] = nameof(RavenLiteServerOptions.CorsOrigins),
    };

    /// <summary>The switches as configuration keys, for <c>AddCommandLine</c>.</summary>
    public static IDictionary<string, string> SwitchMappings =>
        Switches.ToDictionary(pair => pair.Key, pair => $"{Section}:{pair.Value}", StringComparer.Ordinal);

    /// <summary>Binds and validates the options; throws <see cref="ServerStartupException"/> when they are bad.</summary>
    public static RavenLiteServerOptions Load(IConfiguration configuration)
    {
        RavenLiteServerOptions options;
        try
        {
            var section = configuration.GetSection(Section);
            options = section.Get<RavenLiteServerOptions>() ?? new RavenLiteServerOptions();
            var database = section.Get<DocumentDatabaseOptions>() ?? options.Database;
            // Bound by reflection, a required setting that is absent stays null: the default folder, as documented.
            if (database.DataDirectory is null)
                database.DataDirectory = "./data";
            options.Database = database;
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
        options.Database.DataDirectory = Path.GetFullPath(options.Database.DataDirectory);
        return options;
    }

    /// <summary>A database option's refusal with the setting's switch named: <c>CacheSizeMb (--cache-size-mb): ...</c>.</summary>
    public static string WithSwitchName(ArgumentException exception)
    {
        var message = exception.Message;
        var suffix = $" (Parameter '{exception.ParamName}')";
        if (message.EndsWith(suffix, StringComparison.Ordinal))
            message = message[..^suffix.Length];
        // ArgumentOutOfRangeException puts the actual value on a line of its own.
        message = message.Replace(Environment.NewLine, " ", StringComparison.Ordinal);
        var name = exception.ParamName;
        var flag = Switches.FirstOrDefault(pair => pair.Value == name).Key;
        return name is null ? message : flag is null ? $"{name}: {message}" : $"{name} ({flag}): {message}";
    }
}
