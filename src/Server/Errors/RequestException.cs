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

    /// <summary>413: the body is over the configured limit.</summary>
    public static RequestException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, $"The request body is larger than the limit of {limit:N0} bytes.");
}
