namespace RavenLite.Server.OpenApi;

/// <summary>
/// What several routes' OpenAPI descriptions share. Each route's own description sits beside its mapping
/// (<c>.Describe(...)</c> in Routes/), as endpoint metadata; docs/http-api.md is the prose version.
/// </summary>
internal static class RouteDocs
{
    public static readonly ParameterDescription Start = new("start", ParameterPlace.Query, "integer", "Results to skip (default 0).");
    public static readonly ParameterDescription PageSize = new("pageSize", ParameterPlace.Query, "integer",
        "Results to return (default 128); above the maximum (1024) it is clamped and the response says so.");
    public static readonly ParameterDescription IfNoneMatch = new("If-None-Match", ParameterPlace.Header, "string", "An ETag: 304 without a body when it is still current.");
    public static readonly ParameterDescription IfMatch = new("If-Match", ParameterPlace.Header, "string", "\"<etag>\": write only if this is the current etag, else 409 and nothing is written.");
    public static readonly ParameterDescription EntityName = new("Raven-Entity-Name", ParameterPlace.Header, "string",
        "The document's collection; every Raven-* header is stored as metadata.");
    public static readonly (string, string) EtagHeader = ("ETag", "The document's etag, quoted.");

    /// <summary>A GET or HEAD of one document.</summary>
    public static RouteDescription Document(string summary) => new(summary, "Documents")
    {
        Parameters = [IfNoneMatch],
        Responses = Statuses((200, "The document's data (JSON)."), (304, "If-None-Match named the current etag."), (404, "document-not-found: no such document.")),
        ResponseHeaders = [EtagHeader, ("Raven-Entity-Name", "Metadata, one Raven-* header per member."), ("Last-Modified", "When it was written.")],
    };

    /// <summary>Statuses and what each means.</summary>
    public static Dictionary<int, string> Statuses(params (int Status, string Description)[] statuses) =>
        statuses.ToDictionary(s => s.Status, s => s.Description);
}

/// <summary>Puts a route's OpenAPI description beside its mapping.</summary>
internal static class RouteDescriptionMetadata
{
    /// <summary>Attaches <paramref name="description"/> to the endpoint, where the OpenAPI transformer reads it.</summary>
    public static RouteHandlerBuilder Describe(this RouteHandlerBuilder builder, RouteDescription description) =>
        builder.WithMetadata(description);
}
