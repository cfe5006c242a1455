using Scalar.AspNetCore;

namespace RavenLite.Server.OpenApi;

/// <summary>The OpenAPI document (<c>/openapi/v1.json</c>) and its interactive reference page (<c>/scalar/v1</c>).</summary>
internal static class OpenApiEndpoints
{
    /// <summary>The document's route.</summary>
    public const string DocumentPattern = "/openapi/{documentName}.json";

    /// <summary>Registers the generator with RavenLite's route descriptions.</summary>
    public static void AddServices(IServiceCollection services) => services.AddOpenApi("v1", options =>
    {
        options.AddDocumentTransformer<ErrorSchema>();
        options.AddOperationTransformer<RouteOperationTransformer>();
    });

    /// <summary>Maps the document and the reference page, whose script comes from the Scalar package, not a CDN.</summary>
    public static void Map(WebApplication app)
    {
        app.MapOpenApi(DocumentPattern);
        app.MapScalarApiReference(options => options
            .WithTitle("RavenLite API")
            .WithOpenApiRoutePattern(DocumentPattern)
            .DisableDefaultFonts()
            .DisableTelemetry()
            .DisableAgent());
    }
}
