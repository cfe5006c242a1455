using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Parsing;

namespace RavenLite.Server.Cli;

/// <summary>
/// The <c>ravenlite</c> command line: <c>serve</c> (also what no verb means) and the tool verbs, on System.CommandLine,
/// with options from the one table (<see cref="CliOptions"/>) and help generated from them. A new verb is one
/// <see cref="Verb"/> added to <see cref="Verbs"/>.
/// </summary>
internal static class RavenLiteCommand
{
    /// <summary>Exit code when the command line is wrong.</summary>
    public const int UsageExitCode = 2;

    /// <summary>Exit code when the verb failed (a bad line, an unreachable server, a database that will not open).</summary>
    public const int FailedExitCode = 1;

    /// <summary>
    /// The verbs besides serving. Each takes options of the table, says what it did in one line on standard output,
    /// and throws <see cref="TransferException"/> when it fails, or <see cref="ArgumentException"/> when its options
    /// do not go together.
    /// </summary>
    private static IEnumerable<Verb> Verbs =>
    [
        TransferOptions.ExportVerb,
        TransferOptions.ImportVerb,
        MaintenanceOptions.BackupVerb,
        MaintenanceOptions.RestoreVerb,
        MaintenanceOptions.CompactVerb,
        QueryOperationVerbs.PatchVerb,
        QueryOperationVerbs.DeleteVerb,
    ];

    private static readonly Command s_root = Create();

    /// <summary>Parses <paramref name="args"/> as <c>ravenlite</c> does.</summary>
    public static ParseResult Parse(string[] args) => s_root.Parse(args);

    /// <summary>The verb <paramref name="args"/> choose: <c>serve</c> when none is named.</summary>
    public static string VerbOf(string[] args) => VerbName(Parse(args));

    /// <summary>Runs the command line and returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, CancellationToken cancellationToken = default)
    {
        var parsed = Parse(args);
        // The server stops on Ctrl+C and SIGTERM itself (finishing in-flight requests within --shutdown-timeout); the
        // library's own handler would cut that short after its timeout.
        var configuration = new InvocationConfiguration { Output = output, Error = error, ProcessTerminationTimeout = null };
        if (parsed.Errors.Count > 0 && parsed.Action is not HelpAction)
        {
            foreach (var problem in parsed.Errors)
                await error.WriteLineAsync($"ravenlite {VerbName(parsed)}: {problem.Message}");
            await error.WriteLineAsync("Run 'ravenlite --help' for usage.");
            return UsageExitCode;
        }
        return await parsed.InvokeAsync(configuration, cancellationToken);
    }

    private static string VerbName(ParseResult parsed) =>
        parsed.CommandResult.Command == s_root ? ServeCommand.Name : parsed.CommandResult.Command.Name;

    // A Command named ravenlite rather than a RootCommand, which takes its name from the executable (RavenLite.Server).
    private static Command Create()
    {
        var root = new Command("ravenlite", "RavenLite's server, studio and import/export tool. With no verb, serves (as 'ravenlite serve').")
        {
            new HelpOption(),
            new VersionOption(),
        };
        // Host settings (--RavenLite:MaxPageSize=700, --environment) pass through to the server's configuration.
        root.TreatUnmatchedTokensAsErrors = false;
        foreach (var option in CliOptions.Server)
            root.Add(option);
        root.SetAction(ServeCommand.RunAsync);
        root.Add(ServeCommand.Create());
        foreach (var verb in Verbs)
            root.Add(verb.Create());
        return root;
    }
}

/// <summary>
/// A tool verb: its name, its help text, the options and arguments it takes, and what it does with them.
/// <paramref name="Run"/> gets the parse result, standard error for progress and the cancellation token, and returns
/// the line to print on standard output.
/// </summary>
internal sealed record Verb(string Name, string Description, IReadOnlyList<Symbol> Symbols, Func<ParseResult, TextWriter, CancellationToken, Task<string>> Run)
{
    public Command Create()
    {
        var command = new Command(Name, Description);
        foreach (var symbol in Symbols)
        {
            switch (symbol)
            {
                case Option option:
                    command.Add(option);
                    break;
                case Argument argument:
                    command.Add(argument);
                    break;
            }
        }
        command.SetAction(RunAsync);
        return command;
    }

    private async Task<int> RunAsync(ParseResult parsed, CancellationToken cancellationToken)
    {
        var (output, error) = (parsed.InvocationConfiguration.Output, parsed.InvocationConfiguration.Error);
        try
        {
            // The root lets unknown tokens through for the server's host settings; a verb takes only its own.
            // An unknown --flag before a positional argument is taken as that argument's value; name it either way.
            var given = parsed.CommandResult.Children.OfType<ArgumentResult>().SelectMany(a => a.Tokens).Select(t => t.Value).Concat(parsed.UnmatchedTokens);
            if (given.FirstOrDefault(t => t.StartsWith('-')) is { } unknown)
                throw new ArgumentException($"Unknown option '{unknown}'.");
            if (parsed.UnmatchedTokens.Count > 0)
                throw new ArgumentException($"Unexpected argument '{parsed.UnmatchedTokens[0]}'.");
            await output.WriteLineAsync(await Run(parsed, error, cancellationToken));
            return 0;
        }
        catch (ArgumentException ex)
        {
            await error.WriteLineAsync($"ravenlite {Name}: {ex.Message}");
            await error.WriteLineAsync("Run 'ravenlite --help' for usage.");
            return RavenLiteCommand.UsageExitCode;
        }
        catch (TransferException ex)
        {
            await error.WriteLineAsync($"ravenlite {Name}: {ex.Message}");
            return RavenLiteCommand.FailedExitCode;
        }
    }
}
