namespace RavenLite.Studio.Tests.Infrastructure;

/// <summary>Finds the Chromium the browser tests drive: <c>RAVENLITE_CHROMIUM</c>, else Debian's <c>chromium</c> package
/// (or Google Chrome / Edge where that is what the machine has, as on CI runners).</summary>
public static class Chromium
{
    public const string PathVariable = "RAVENLITE_CHROMIUM";

    private static readonly string[] s_candidates = OperatingSystem.IsWindows()
        ? [@"C:\Program Files\Google\Chrome\Application\chrome.exe", @"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe"]
        : ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

    /// <summary>The executable, or null when none is installed.</summary>
    public static string? ExecutablePath { get; } = Find();

    public static string MissingReason =>
        $"Chromium is not installed (looked for {PathVariable} and {string.Join(", ", s_candidates)}); " +
        "install it with 'apt-get install chromium' (.ci/run does) to run the studio's browser tests.";

    /// <summary>Flags that make headless Chromium work in a container and stay off the network.</summary>
    public static readonly string[] LaunchArguments =
    [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ];

    private static string? Find()
    {
        var configured = Environment.GetEnvironmentVariable(PathVariable);
        if (!string.IsNullOrWhiteSpace(configured))
            return File.Exists(configured) ? configured : null;
        return s_candidates.FirstOrDefault(File.Exists);
    }
}
