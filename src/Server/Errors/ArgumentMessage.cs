using System.Text.RegularExpressions;

namespace RavenLite.Server.Errors;

/// <summary>
/// What a caller is told of an <see cref="ArgumentException"/>: its message without the " (Parameter 'x')" that .NET
/// appends (a message that wraps another carries it inside too), on one line (ArgumentOutOfRangeException puts the
/// actual value on a line of its own). Used for HTTP problem details and for refused server settings alike.
/// </summary>
internal static partial class ArgumentMessage
{
    public static string Of(ArgumentException exception) =>
        LineBreaks().Replace(ParameterSuffix().Replace(exception.Message, ""), " ");

    [GeneratedRegex(@" \(Parameter '[^']*'\)(?=\r?\n|$)")]
    private static partial Regex ParameterSuffix();

    [GeneratedRegex(@"\r?\n")]
    private static partial Regex LineBreaks();
}
