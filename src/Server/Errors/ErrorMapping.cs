using System.Text.RegularExpressions;
using RavenLite.Indexing;
using RavenLite.Storage;

namespace RavenLite.Server.Errors;

/// <summary>The one place exceptions become HTTP statuses and client-facing messages.</summary>
internal static partial class ErrorMapping
{
    /// <summary>The message sent for anything unexpected; the details stay in the server log.</summary>
    public const string UnexpectedMessage = "An unexpected error occurred; it has been logged on the server.";

    /// <summary>
    /// The status and message for <paramref name="exception"/>. <c>Unexpected</c> is true for server faults
    /// (500): their message is generic, and the exception is logged with its stack trace.
    /// </summary>
    public static (int Status, string Message, bool Unexpected) Map(Exception exception) => exception switch
    {
        RequestException request => (request.StatusCode, request.Message, false),
        ConcurrencyException conflict => (StatusCodes.Status409Conflict, conflict.Message, false),
        // RFC 5789: a patch that cannot apply to the document's current state is a conflict (a failed test) or unprocessable.
        PatchException patch => (patch.TestFailed ? StatusCodes.Status409Conflict : StatusCodes.Status422UnprocessableEntity, patch.Message, false),
        IndexNotFoundException missing => (StatusCodes.Status404NotFound, missing.Message, false),
        // Parse and binding errors quote the query and give the position where it failed.
        QueryException query => (StatusCodes.Status400BadRequest, query.Message, false),
        // Waiting for non-stale results ran out of time: the request was fine, the index is behind. 504 says
        // "the server gave up waiting for something it depends on" and invites a retry, unlike 500; 408 would
        // blame the client for being slow to send its request, and 503 already means "database closed".
        TimeoutException timeout => (StatusCodes.Status504GatewayTimeout, timeout.Message, false),
        // Kestrel's own refusals: body over MaxRequestBodySize (413), truncated bodies, bad framing (400).
        BadHttpRequestException bad when bad.StatusCode == StatusCodes.Status413PayloadTooLarge =>
            (bad.StatusCode, "The request body is larger than the server's limit (MaxRequestBodyBytes).", false),
        BadHttpRequestException bad => (bad.StatusCode, bad.Message, false),
        // Stored data that cannot be read (damaged, or written before a check refused it) is the server's fault,
        // never the client's: a generic 500, with the details (key, etag, cause) in the log. (Such damage used to
        // surface as an ArgumentException, and so as a 400.)
        StorageCorruptedException => (StatusCodes.Status500InternalServerError, UnexpectedMessage, true),
        // The storage layer reports bad input (keys, JSON that is not one object, oversized documents,
        // negative paging) as ArgumentException with a message written for the caller.
        ArgumentException argument => (StatusCodes.Status400BadRequest, WithoutParameterSuffix(argument), false),
        ObjectDisposedException => (StatusCodes.Status503ServiceUnavailable, "The database is closed; the server is shutting down.", false),
        _ => (StatusCodes.Status500InternalServerError, UnexpectedMessage, true),
    };

    /// <summary>
    /// ArgumentException appends " (Parameter 'x')", and a message that wraps another one carries it inside; the client
    /// does not need it.
    /// </summary>
    private static string WithoutParameterSuffix(ArgumentException exception) =>
        ParameterSuffix().Replace(exception.Message, "");

    [GeneratedRegex(@" \(Parameter '[^']*'\)$")]
    private static partial Regex ParameterSuffix();
}
