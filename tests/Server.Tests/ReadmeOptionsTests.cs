using System.Text.RegularExpressions;
using RavenLite.Server.Hosting;

namespace RavenLite.Server.Tests;

/// <summary>
/// The README's option table is the server's rows of the one option table (Cli/CliOptions.cs, which help is generated
/// from), in the same order, so neither drifts from the other.
/// </summary>
public sealed partial class ReadmeOptionsTests
{
    [GeneratedRegex(@"^\| `(?<flag>--[a-z-]+) (?<argument><[a-z-]+>)` \| (?<text>.*) \|$", RegexOptions.Multiline)]
    private static partial Regex OptionRow();

    private static string Readme()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "RavenLite.sln")))
            directory = directory.Parent;
        Assert.NotNull(directory);
        return File.ReadAllText(Path.Combine(directory.FullName, "README.md"));
    }

    [Fact]
    public void The_readme_lists_every_server_option_with_its_argument_in_the_order_the_server_declares_them()
    {
        var rows = OptionRow().Matches(Readme()).Select(m => $"{m.Groups["flag"].Value} {m.Groups["argument"].Value}").ToList();

        Assert.Equal(ServerConfiguration.Switches.Select(s => $"{s.Flag} {s.Argument}"), rows);
    }

    [Fact]
    public void The_readme_states_the_api_key_minimum_length_the_server_enforces()
    {
        var apiKey = OptionRow().Matches(Readme()).Single(m => m.Groups["flag"].Value == "--api-key");

        Assert.Contains($"at least {RavenLiteServerOptions.MinimumApiKeyLength} characters", apiKey.Groups["text"].Value, StringComparison.Ordinal);
    }
}
