namespace RavenLite.Server.OpenApi;

/// <summary>Where an OpenAPI parameter travels.</summary>
internal enum ParameterPlace
{
    Query,
    Header,
}

/// <summary>A query parameter or request header a route reads by hand (so the generator cannot see it).</summary>
internal sealed record ParameterDescription(string Name, ParameterPlace In, string Type, string Description);

/// <summary>
/// What the OpenAPI generator cannot learn from a handler that reads its request and writes its response itself: a
/// summary, the parameters and headers it reads, its body, and each status it answers with.
/// </summary>
internal sealed record RouteDescription(string Summary, string Tag)
{
    public IReadOnlyList<ParameterDescription> Parameters { get; init; } = [];

    /// <summary>The JSON type of the body (<c>object</c> or <c>array</c>) and what it holds; null: no body.</summary>
    public (string Type, string Description)? Body { get; init; }

    /// <summary>Statuses: 2xx and 304 carry <see cref="SuccessType"/> (or nothing); 4xx and 5xx problem details.</summary>
    public IReadOnlyDictionary<int, string> Responses { get; init; } = new Dictionary<int, string>();

    /// <summary>The JSON type of a 200/201 body; null when the success has no body.</summary>
    public string? SuccessType { get; init; } = "object";

    /// <summary>Response headers of the success (name, description).</summary>
    public IReadOnlyList<(string Name, string Description)> ResponseHeaders { get; init; } = [];
}
