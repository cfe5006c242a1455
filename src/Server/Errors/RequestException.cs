namespace RavenLite.Server.Errors;

/// <summary>
/// A request the server refuses with a 4xx status and a message meant for the client. Thrown by routes and
/// middleware; turned into <c>{"Error": message}</c> by <see cref="ErrorHandlingMiddleware"/>.
/// </summary>
internal sealed class RequestException : Exception
{
    /// <summary>Creates the exception.</summary>
    public RequestException(int statusCode, string message) : base(message) => StatusCode = statusCode;

    /// <summary>The HTTP status to answer with.</summary>
    public int StatusCode { get; }

    /// <summary>400: the request is malformed or names something invalid.</summary>
    public static RequestException BadRequest(string message) => new(StatusCodes.Status400BadRequest, message);

    /// <summary>404: no such document.</summary>
    public static RequestException DocumentNotFound(string key) =>
        new(StatusCodes.Status404NotFound, $"Document '{key}' does not exist.");

    /// <summary>400: a Host header that is neither a loopback name nor configured (DNS rebinding looks like this).</summary>
    public static RequestException HostNotAllowed(string host) =>
        new(StatusCodes.Status400BadRequest,
            $"Host '{host}' is not served: only loopback names (localhost, 127.x.x.x, [::1]) and those given with --allowed-hosts are.");

    /// <summary>403: a request from another web origin, which only <c>--cors-origins</c> can allow.</summary>
    public static RequestException CrossSite(string what) =>
        new(StatusCodes.Status403Forbidden,
            $"{what} is refused: requests from other web sites are allowed only from origins given with --cors-origins.");

    /// <summary>415: a body not declared as JSON.</summary>
    public static RequestException NotJson(string? contentType) =>
        new(StatusCodes.Status415UnsupportedMediaType,
            $"Request bodies must be sent with Content-Type: application/json (UTF-8); got {(string.IsNullOrEmpty(contentType) ? "none" : $"'{contentType}'")}.");

    /// <summary>413: the body is over the configured limit.</summary>
    public static RequestException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, $"The request body is larger than the limit of {limit:N0} bytes.");
}
