using System.Globalization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace RavenLite.Server.OpenApi;

/// <summary>
/// Fills each operation from the <see cref="RouteDescription"/> its endpoint carries (attached beside the route's
/// mapping with <c>.Describe(...)</c>): summary, tag, parameters and headers, body, and every
/// status with its content (problem details for 4xx and 5xx), plus what every route may answer
/// (401 without the API key, 403 off loopback, 415 for a body that is not JSON, 500).
/// </summary>
internal sealed class RouteOperationTransformer : IOpenApiOperationTransformer
{
    private const string Json = "application/json";

    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        if (context.Description.ActionDescriptor.EndpointMetadata.OfType<RouteDescription>().LastOrDefault() is not { } route)
            return Task.CompletedTask;
        var document = context.Document!;
        operation.Summary = route.Summary;
        operation.Tags = new HashSet<OpenApiTagReference> { new(route.Tag, document) };
        operation.Parameters ??= [];
        foreach (var path in operation.Parameters.OfType<OpenApiParameter>().Where(p => p.In == ParameterLocation.Path))
            path.Description = PathDescription(path.Name);
        foreach (var parameter in route.Parameters)
        {
            operation.Parameters.Add(new OpenApiParameter
            {
                Name = parameter.Name,
                In = parameter.In == ParameterPlace.Query ? ParameterLocation.Query : ParameterLocation.Header,
                Description = parameter.Description,
                Schema = new OpenApiSchema { Type = SchemaType(parameter.Type) },
            });
        }
        if (route.Body is { } body)
        {
            operation.RequestBody = new OpenApiRequestBody
            {
                Required = true,
                Description = body.Description + " Sent with Content-Type: application/json.",
                Content = new Dictionary<string, OpenApiMediaType> { [Json] = new() { Schema = new OpenApiSchema { Type = SchemaType(body.Type) } } },
            };
        }
        operation.Responses = [];
        foreach (var (status, description) in route.Responses)
            operation.Responses[status.ToString(CultureInfo.InvariantCulture)] = Response(status, description, route, document);
        foreach (var (status, description) in Common(route))
            operation.Responses.TryAdd(status.ToString(CultureInfo.InvariantCulture), ErrorResponse(description, document));
        return Task.CompletedTask;
    }

    private static IEnumerable<(int, string)> Common(RouteDescription route)
    {
        yield return (401, "unauthorized: the server has an API key and the request's X-Api-Key is missing or wrong.");
        yield return (403, "not-loopback or cross-site: not a loopback address, or a request from another web origin.");
        if (route.Body is not null)
            yield return (415, "unsupported-media-type: the body's Content-Type is not application/json.");
        yield return (500, "internal: an unexpected error; the details are in the server's log.");
    }

    private static OpenApiResponse Response(int status, string description, RouteDescription route, OpenApiDocument document)
    {
        if (status >= 400)
            return ErrorResponse(description, document);
        var response = new OpenApiResponse { Description = description };
        if (status is 200 or 201)
        {
            if (route.SuccessType is { } type)
                response.Content = new Dictionary<string, OpenApiMediaType> { [Json] = new() { Schema = new OpenApiSchema { Type = SchemaType(type) } } };
            response.Headers = route.ResponseHeaders.ToDictionary(h => h.Name,
                h => (IOpenApiHeader)new OpenApiHeader { Description = h.Description, Schema = new OpenApiSchema { Type = JsonSchemaType.String } });
        }
        return response;
    }

    private static OpenApiResponse ErrorResponse(string description, OpenApiDocument document) => new()
    {
        Description = description,
        Content = new Dictionary<string, OpenApiMediaType> { [ErrorSchema.MediaType] = new() { Schema = new OpenApiSchemaReference(ErrorSchema.Name, document) } },
    };

    private static string PathDescription(string? name) => name switch
    {
        "id" => "The document key; it may contain '/' (carts/1). Looked up case-insensitively.",
        "name" => "The index name; it may contain '/' (Raven/DocumentsByEntityName). Compared case-insensitively.",
        _ => "",
    };

    private static JsonSchemaType SchemaType(string type) => type switch
    {
        "integer" => JsonSchemaType.Integer,
        "boolean" => JsonSchemaType.Boolean,
        "object" => JsonSchemaType.Object,
        "array" => JsonSchemaType.Array,
        _ => JsonSchemaType.String,
    };
}
