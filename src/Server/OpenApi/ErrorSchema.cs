using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace RavenLite.Server.OpenApi;

/// <summary>
/// Adds what the whole document shares: the title, the <c>{"Error": "message"}</c> schema every refusal uses, the
/// tags, and the <c>X-Api-Key</c> header as a security scheme.
/// </summary>
internal sealed class ErrorSchema : IOpenApiDocumentTransformer
{
    /// <summary>The schema's name under components.</summary>
    public const string Name = "Error";

    private const string ApiKeyScheme = "ApiKey";

    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        document.Info = new OpenApiInfo
        {
            Title = "RavenLite",
            Version = "v1",
            Description = "RavenLite's HTTP API: documents, bulk writes, multi-get, indexes and queries, statistics. " +
                          "Every error is a 4xx or 5xx with the body {\"Error\": \"message\"}.",
        };
        document.Components ??= new OpenApiComponents();
        document.Components.Schemas ??= new Dictionary<string, IOpenApiSchema>();
        document.Components.Schemas[Name] = new OpenApiSchema
        {
            Type = JsonSchemaType.Object,
            Description = "The body of every error response.",
            Required = new HashSet<string> { "Error" },
            Properties = new Dictionary<string, IOpenApiSchema>
            {
                ["Error"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "What was wrong, and that nothing was written when a write was refused." },
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
}
