using Microsoft.AspNetCore.OpenApi;
using System.Text.Json.Nodes;
using Microsoft.OpenApi;

namespace RavenLite.Server.OpenApi;

/// <summary>
/// Adds what the whole document shares: the title, the problem details schema (RFC 9457) every refusal uses, the
/// tags, and the <c>X-Api-Key</c> header as a security scheme.
/// </summary>
internal sealed class ErrorSchema : IOpenApiDocumentTransformer
{
    /// <summary>The schema's name under components.</summary>
    public const string Name = "ProblemDetails";

    /// <summary>The media type of every error body.</summary>
    public const string MediaType = "application/problem+json";

    private const string ApiKeyScheme = "ApiKey";

    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        document.Info = new OpenApiInfo
        {
            Title = "RavenLite",
            Version = "v1",
            Description = "RavenLite's HTTP API: documents, bulk writes, multi-get, indexes and queries, statistics. " +
                          "Every error is a 4xx or 5xx with an RFC 9457 problem details body (application/problem+json) whose " +
                          "'code' member says what kind of error it is (docs/http-api.md lists them).",
        };
        document.Components ??= new OpenApiComponents();
        document.Components.Schemas ??= new Dictionary<string, IOpenApiSchema>();
        document.Components.Schemas[Name] = new OpenApiSchema
        {
            Type = JsonSchemaType.Object,
            Description = "The body of every error response (RFC 9457). Clients switch on 'code'; 'detail' is for people.",
            Required = new HashSet<string> { "status", "title", "detail", ErrorCodes.CodeMember },
            Properties = new Dictionary<string, IOpenApiSchema>
            {
                ["type"] = Text("A URI for the status's kind of problem (its RFC 9110 section); absent means about:blank."),
                ["title"] = Text("The status's reason phrase."),
                ["status"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Description = "The HTTP status, repeated." },
                ["detail"] = Text("What was wrong, and that nothing was written when a write was refused."),
                [ErrorCodes.CodeMember] = new OpenApiSchema
                {
                    Type = JsonSchemaType.String,
                    Description = "The kind of error, stable across versions.",
                    Enum = [.. ErrorCodes.All.Select(c => (JsonNode)JsonValue.Create(c))],
                },
                [ErrorCodes.LimitMember] = Text("limit-exceeded: the name of the bound, e.g. MaxAutomatonStates."),
                [ErrorCodes.KeyMember] = Text("concurrency-conflict: the document's key."),
                [ErrorCodes.ExpectedEtagMember] = Text("concurrency-conflict: the etag the write expected, a decimal string (\"0\": not to exist)."),
                [ErrorCodes.ActualEtagMember] = Text("concurrency-conflict: the document's current etag, a decimal string; null when it does not exist."),
                [ErrorCodes.CommandIndexMember] = new OpenApiSchema
                {
                    Type = JsonSchemaType.Integer | JsonSchemaType.Null,
                    Description = "concurrency-conflict in POST /bulk_docs: the zero-based index of the command that failed.",
                },
            },
        };
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes[ApiKeyScheme] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Header,
            Name = Security.ApiKeyMiddleware.HeaderName,
            Description = "Required on every request when the server was started with --api-key.",
        };
        document.Tags = new HashSet<OpenApiTag>
        {
            new() { Name = "Documents" }, new() { Name = "Indexes" }, new() { Name = "Status" },
        };
        return Task.CompletedTask;
    }

    private static OpenApiSchema Text(string description) => new() { Type = JsonSchemaType.String, Description = description };
}
