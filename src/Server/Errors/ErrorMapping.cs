using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.WebUtilities;
using RavenLite.Storage;

namespace RavenLite.Server.Errors;

/// <summary>
/// The one place exceptions and bare statuses become HTTP statuses, error codes (<see cref="ErrorCodes"/>) and
/// client-facing messages, as RFC 9457 problem details.
/// </summary>
internal static class ErrorMapping
{
    /// <summary>The message sent for anything unexpected; the details stay in the server log.</summary>
    public const string UnexpectedMessage = "An unexpected error occurred; it has been logged on the server.";

    /// <summary>
    /// The problem details for <paramref name="exception"/>. <c>Unexpected</c> is true for server faults (500): their
    /// message is generic, and the exception is logged with its stack trace.
    /// </summary>
    public static (ProblemDetails Problem, bool Unexpected) Map(Exception exception) => exception switch
    {
        RequestException request => (Problem(request.StatusCode, request.Code, request.Message), false),
        // Before ArgumentException, which it is: a bound on work (automaton size, matching terms, patch growth), named.
        LimitExceededException limit => (LimitExceeded(limit), false),
        ConcurrencyException conflict => (Conflict(conflict), false),
        // RFC 5789: a patch that cannot apply to the document's current state is a conflict (a failed test) or unprocessable.
        PatchException patch => (patch.TestFailed
            ? Problem(StatusCodes.Status409Conflict, ErrorCodes.PatchTestFailed, patch.Message)
            : Problem(StatusCodes.Status422UnprocessableEntity, ErrorCodes.PatchInvalid, patch.Message), false),
        IndexNotFoundException missing => (Problem(StatusCodes.Status404NotFound, ErrorCodes.IndexNotFound, missing.Message), false),
        // Parse and binding errors quote the query and give the position where it failed.
        QueryException query => (Problem(StatusCodes.Status400BadRequest, ErrorCodes.QueryInvalid, query.Message), false),
        // Waiting for non-stale results ran out of time: the request was fine, the index is behind. 504 says
        // "the server gave up waiting for something it depends on" and invites a retry, unlike 500; 408 would
        // blame the client for being slow to send its request, and 503 already means "database closed".
        IndexStaleException stale => (Problem(StatusCodes.Status409Conflict, ErrorCodes.IndexStale, stale.Message), false),
        TimeoutException timeout => (Problem(StatusCodes.Status504GatewayTimeout, ErrorCodes.IndexStale, timeout.Message), false),
        // Kestrel's own refusals: body over MaxRequestBodySize (413), truncated bodies, bad framing (400).
        BadHttpRequestException bad when bad.StatusCode == StatusCodes.Status413PayloadTooLarge =>
            (Problem(bad.StatusCode, ErrorCodes.PayloadTooLarge, "The request body is larger than the server's limit (MaxRequestBodyBytes)."), false),
        BadHttpRequestException bad => (Problem(bad.StatusCode, ErrorCodes.BadRequest, bad.Message), false),
        // Stored data that cannot be read (damaged, or written before a check refused it) is the server's fault,
        // never the client's: a generic 500, with the details (key, etag, cause) in the log. (Such damage used to
        // surface as an ArgumentException, and so as a 400.)
        StorageCorruptedException => (Unexpected(), true),
        // A full disk or a map that may not grow: nothing was written, and the same request succeeds once space is freed.
        StorageFullException full => (Problem(StatusCodes.Status507InsufficientStorage, ErrorCodes.StorageFull, full.Message), false),
        // A standby refuses writes for as long as it is one: not worth retrying on this server (403, not 503).
        StorageUnavailableException { ReadOnly: true } readOnly =>
            (Problem(StatusCodes.Status403Forbidden, ErrorCodes.ReadOnly, readOnly.Message), false),
        // PostgreSQL restarting or failing over: the same request succeeds within seconds. The problem says whether a
        // write may have been stored, so the client's retry (with its If-Match) cannot apply it twice.
        StorageUnavailableException unavailable => (Unavailable(unavailable), false),
        // The storage layer reports bad input (keys, JSON that is not one object, oversized documents,
        // negative paging) as ArgumentException with a message written for the caller.
        ArgumentException argument => (Problem(StatusCodes.Status400BadRequest, ErrorCodes.BadRequest, ArgumentMessage.Of(argument)), false),
        ObjectDisposedException => (Problem(StatusCodes.Status503ServiceUnavailable, ErrorCodes.Unavailable,
            "The database is closed; the server is shutting down."), false),
        _ => (Unexpected(), true),
    };

    /// <summary>The problem details for a status the framework set without a body (unknown route 404, wrong method 405).</summary>
    public static ProblemDetails MapStatus(int status, HttpRequest request) => status switch
    {
        StatusCodes.Status404NotFound => Problem(status, ErrorCodes.RouteNotFound, $"No route for {request.Method} {request.Path}."),
        StatusCodes.Status405MethodNotAllowed => Problem(status, ErrorCodes.MethodNotAllowed, $"{request.Path} does not accept {request.Method}."),
        >= 500 => Problem(status, ErrorCodes.Internal, $"The request failed with status {status}."),
        _ => Problem(status, ErrorCodes.BadRequest, $"The request failed with status {status}."),
    };

    private static ProblemDetails Unexpected() =>
        Problem(StatusCodes.Status500InternalServerError, ErrorCodes.Internal, UnexpectedMessage);

    private static ProblemDetails Unavailable(StorageUnavailableException unavailable)
    {
        var problem = Problem(StatusCodes.Status503ServiceUnavailable, ErrorCodes.StorageUnavailable, unavailable.Message);
        problem.Extensions[ErrorCodes.OutcomeUnknownMember] = unavailable.OutcomeUnknown;
        return problem;
    }

    private static ProblemDetails LimitExceeded(LimitExceededException limit)
    {
        var problem = Problem(StatusCodes.Status400BadRequest, ErrorCodes.LimitExceeded, limit.Message);
        problem.Extensions[ErrorCodes.LimitMember] = limit.Limit;
        return problem;
    }

    /// <summary>409 with the conflict's data as members, so clients never read it out of the message.</summary>
    private static ProblemDetails Conflict(ConcurrencyException conflict)
    {
        var problem = Problem(StatusCodes.Status409Conflict, ErrorCodes.ConcurrencyConflict, conflict.Message);
        problem.Extensions[ErrorCodes.KeyMember] = conflict.Key;
        problem.Extensions[ErrorCodes.ExpectedEtagMember] = EtagText(conflict.ExpectedEtag);
        problem.Extensions[ErrorCodes.ActualEtagMember] = EtagText(conflict.ActualEtag);
        problem.Extensions[ErrorCodes.CommandIndexMember] = conflict.CommandIndex;
        return problem;
    }

    /// <summary>Etags travel as decimal strings everywhere in the API (JavaScript numbers lose precision past 2^53).</summary>
    private static string? EtagText(long? etag) => etag?.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// The title is the status's reason phrase, as RFC 9457 asks of problems typed only by their status; the kind of
    /// error is in <c>code</c>. The type (a link to the status's RFC 9110 section) is filled in when written.
    /// </summary>
    private static ProblemDetails Problem(int status, string code, string detail) => new()
    {
        Status = status,
        Title = ReasonPhrases.GetReasonPhrase(status),
        Detail = detail,
        Extensions = { [ErrorCodes.CodeMember] = code },
    };
}
