namespace RavenLite.Server.Errors;

/// <summary>
/// A request the server refuses with a 4xx status (or 503 from <c>/health/ready</c>), an error code
/// (<see cref="ErrorCodes"/>) and a message meant for the client. Thrown by routes and middleware; turned into problem
/// details by <see cref="ErrorHandlingMiddleware"/>.
/// </summary>
internal sealed class RequestException : Exception
{
    /// <summary>Creates the exception.</summary>
    public RequestException(int statusCode, string code, string message) : base(message)
    {
        StatusCode = statusCode;
        Code = code;
    }

    /// <summary>The HTTP status to answer with.</summary>
    public int StatusCode { get; }

    /// <summary>The problem's <c>code</c>, one of <see cref="ErrorCodes"/>.</summary>
    public string Code { get; }

    /// <summary>400: the request is malformed or names something invalid.</summary>
    public static RequestException BadRequest(string message) =>
        new(StatusCodes.Status400BadRequest, ErrorCodes.BadRequest, message);

    /// <summary>404: no such document.</summary>
    public static RequestException DocumentNotFound(string key) =>
        new(StatusCodes.Status404NotFound, ErrorCodes.DocumentNotFound, $"Document '{key}' does not exist.");

    /// <summary>400: a Host header that is neither a loopback name nor configured (DNS rebinding looks like this).</summary>
    public static RequestException HostNotAllowed(string host) =>
        new(StatusCodes.Status400BadRequest, ErrorCodes.HostNotAllowed,
            $"Host '{host}' is not served: only loopback names (localhost, 127.x.x.x, [::1]) and those given with --allowed-hosts are.");

    /// <summary>403: a request from another web origin, which only <c>--cors-origins</c> can allow.</summary>
    public static RequestException CrossSite(string what) =>
        new(StatusCodes.Status403Forbidden, ErrorCodes.CrossSite,
            $"{what} is refused: requests from other web sites are allowed only from origins given with --cors-origins.");

    /// <summary>401: the server has an API key and the request did not send it, or sent another.</summary>
    public static RequestException Unauthorized(string message) =>
        new(StatusCodes.Status401Unauthorized, ErrorCodes.Unauthorized, message);

    /// <summary>403: the server has no API key and the connection did not arrive on a loopback address.</summary>
    public static RequestException NotLoopback() =>
        new(StatusCodes.Status403Forbidden, ErrorCodes.NotLoopback,
            "This server has no API key, so it only answers on loopback addresses.");

    /// <summary>403: a built-in index cannot be changed or deleted.</summary>
    public static RequestException BuiltInIndex(string message) =>
        new(StatusCodes.Status403Forbidden, ErrorCodes.BuiltInIndex, message);

    /// <summary>415: a body not declared as JSON.</summary>
    public static RequestException NotJson(string? contentType) =>
        new(StatusCodes.Status415UnsupportedMediaType, ErrorCodes.UnsupportedMediaType,
            $"Request bodies must be sent with Content-Type: application/json (UTF-8), or application/x-ndjson to /bulk_insert; got {(string.IsNullOrEmpty(contentType) ? "none" : $"'{contentType}'")}.");

    /// <summary>413: the body is over the configured limit.</summary>
    public static RequestException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, ErrorCodes.PayloadTooLarge, $"The request body is larger than the limit of {limit:N0} bytes.");
}
