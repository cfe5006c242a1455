using System.Globalization;
using System.Text.RegularExpressions;

namespace RavenLite.Client.Backend;

/// <summary>
/// The server's statuses turned back into the exceptions the embedded database throws, so callers catch the same
/// types whichever store they use (the reverse of the server's ErrorMapping).
/// </summary>
internal static partial class RemoteErrors
{
    public static Exception ForDocuments(RemoteError error) => Common(error);

    public static Exception ForQuery(RemoteError error, string indexName) => error.Status switch
    {
        404 => new IndexNotFoundException(indexName),
        // The server sends a QueryException's message as it is; other 400s are bad arguments (paging, sort fields).
        400 when error.Message.StartsWith("Cannot parse query", StringComparison.Ordinal) => new QueryException(error.Message),
        _ => Common(error),
    };

    public static Exception ForBatch(RemoteError error, IReadOnlyList<WriteCommand> commands)
    {
        if (error.Status != 409)
            return Common(error);
        if (PatchFailed().IsMatch(error.Message))
            return new PatchException(error.Message, testFailed: true);
        // "Batch command N: concurrency conflict on document 'k': expected etag E, but its current etag is A."
        var index = CommandIndex().Match(error.Message);
        if (!index.Success || int.Parse(index.Groups[1].Value, CultureInfo.InvariantCulture) is var i && i >= commands.Count)
            return new InvalidOperationException(error.Message);
        var actual = ActualEtag().Match(error.Message);
        return new ConcurrencyException(commands[i].Key, commands[i].ExpectedEtag,
            actual.Success ? long.Parse(actual.Groups[1].Value, CultureInfo.InvariantCulture) : null, i);
    }

    private static Exception Common(RemoteError error) => error.Status switch
    {
        400 or 413 => new ArgumentException(error.Message),
        409 when PatchFailed().IsMatch(error.Message) => new PatchException(error.Message, testFailed: true),
        409 => new InvalidOperationException(error.Message),
        422 => new PatchException(error.Message, testFailed: false),
        504 => new TimeoutException(error.Message),
        503 => new ObjectDisposedException("RavenLite server", error.Message),
        _ => new HttpRequestException(error.Message, null, (System.Net.HttpStatusCode)error.Status),
    };

    [GeneratedRegex(@"^Batch command (\d{1,9}): concurrency conflict")]
    private static partial Regex CommandIndex();

    [GeneratedRegex(@"^(Batch command \d{1,9}: )?Patch of '")]
    private static partial Regex PatchFailed();

    [GeneratedRegex(@"its current etag is (\d{1,19})")]
    private static partial Regex ActualEtag();
}
