using Microsoft.Extensions.Configuration;
using RavenLite.Database;
using RavenLite.Server.Cli;

namespace RavenLite.Server.Hosting;

/// <summary>
/// Reads <see cref="RavenLiteServerOptions"/> and its <see cref="DocumentDatabaseOptions"/> from the one <c>RavenLite</c>
/// configuration section, including the command-line switches, and validates them once.
/// </summary>
internal static class ServerConfiguration
{
    private const string Section = RavenLiteServerOptions.SectionName;

    /// <summary>The server's command-line switches: the server rows of the one option table (<see cref="CliOptions.Server"/>).</summary>
    public static IReadOnlyList<CliOption> Switches => CliOptions.Server;

    /// <summary>
    /// The settings the switches in <paramref name="args"/> set, as <c>RavenLite:&lt;Setting&gt;</c> configuration keys,
    /// parsed by the same command line that <c>ravenlite</c> runs (a leading <c>serve</c> verb is allowed). Other
    /// arguments (host settings such as <c>--RavenLite:MaxPageSize=700</c>) are left to the host's own reader.
    /// </summary>
    /// <exception cref="ServerStartupException">A switch lacks its value.</exception>
    public static IEnumerable<KeyValuePair<string, string?>> Settings(string[] args)
    {
        var parsed = RavenLiteCommand.Parse(args);
        if (parsed.Errors.Count > 0)
            throw new ServerStartupException($"Invalid command line: {parsed.Errors[0].Message}", ServerStartupException.ConfigurationExitCode);
        return Switches
            .Where(s => parsed.GetResult(s) is { Implicit: false })
            .Select(s => KeyValuePair.Create($"{Section}:{s.Setting}", parsed.GetValue(s)))
            .ToList();
    }

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
        // Seconds on the command line, a TimeSpan on the database options.
        if (options.ExpiryIntervalSeconds is { } expiry and >= 0 and <= 86_400)
            options.Database.ExpiryInterval = TimeSpan.FromSeconds(expiry);
        options.Validate();
        options.Database.DataDirectory = Path.GetFullPath(options.Database.DataDirectory);
        options.BackupDirectory = Path.GetFullPath(string.IsNullOrWhiteSpace(options.BackupDirectory)
            ? Path.TrimEndingDirectorySeparator(options.Database.DataDirectory) + "-backups"
            : options.BackupDirectory);
        return options;
    }

    /// <summary>A database option's refusal with the setting's switch named: <c>CacheSizeMb (--cache-size-mb): ...</c>.</summary>
    public static string WithSwitchName(ArgumentException exception)
    {
        var message = Errors.ArgumentMessage.Of(exception);
        var name = exception.ParamName;
        var flag = Switches.FirstOrDefault(s => s.Setting == name)?.Flag;
        return name is null ? message : flag is null ? $"{name}: {message}" : $"{name} ({flag}): {message}";
    }
}
