namespace RavenLite.Server;

/// <summary>The server cannot start: bad configuration, an unsafe binding, or a database that will not open.</summary>
internal sealed class ServerStartupException : Exception
{
    /// <summary>Exit code for configuration errors (including listening beyond loopback without an API key).</summary>
    public const int ConfigurationExitCode = 2;

    /// <summary>Exit code for failures to open the database or bind the port.</summary>
    public const int StartupExitCode = 1;

    /// <summary>Creates the exception.</summary>
    public ServerStartupException(string message, int exitCode, Exception? inner = null)
        : base(message, inner) => ExitCode = exitCode;

    /// <summary>The process exit code to report.</summary>
    public int ExitCode { get; }
}
