using System.Net;
using System.Text.Json;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.OpenApi;

public sealed class OpenApiDocumentTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly string[] s_documentationRoutes = ["/openapi/", "/scalar"];

    [Fact]
    public async Task Every_mapped_route_and_method_is_in_the_document_with_a_summary()
    {
        var document = await ReadDocumentAsync();
        var paths = document.GetProperty("paths");
        var mapped = RoutesAndMethods().ToList();
        Assert.True(mapped.Count >= 14, $"Only {mapped.Count} routes were found: {string.Join(", ", mapped)}");
        foreach (var (path, method) in mapped)
        {
            Assert.True(paths.TryGetProperty(path, out var operations), $"{path} is not in the document.");
            Assert.True(operations.TryGetProperty(method.ToLowerInvariant(), out var operation), $"{method} {path} is not in the document.");
            Assert.False(string.IsNullOrWhiteSpace(operation.GetProperty("summary").GetString()), $"{method} {path} has no summary.");
        }
        var documented = paths.EnumerateObject().SelectMany(p => p.Value.EnumerateObject().Select(o => (p.Name, o.Name.ToUpperInvariant())));
        Assert.Empty(documented.Except(mapped));
    }

    [Fact]
    public async Task Every_error_status_uses_the_problem_details_schema_with_every_code()
    {
        var document = await ReadDocumentAsync();
        var error = document.GetProperty("components").GetProperty("schemas").GetProperty("ProblemDetails");
        var code = error.GetProperty("properties").GetProperty("code");
        Assert.Equal("string", code.GetProperty("type").GetString());
        Assert.Equal(ErrorCodes.All, code.GetProperty("enum").EnumerateArray().Select(c => c.GetString()));
        Assert.Contains("detail", error.GetProperty("required").EnumerateArray().Select(r => r.GetString()));
        var errors = 0;
        foreach (var operation in document.GetProperty("paths").EnumerateObject().SelectMany(p => p.Value.EnumerateObject()))
        {
            foreach (var response in operation.Value.GetProperty("responses").EnumerateObject().Where(r => r.Name[0] is '4' or '5'))
            {
                var schema = response.Value.GetProperty("content").GetProperty("application/problem+json").GetProperty("schema");
                Assert.Equal("#/components/schemas/ProblemDetails", schema.GetProperty("$ref").GetString());
                var description = response.Value.GetProperty("description").GetString()!;
                Assert.True(ErrorCodes.All.Any(code => description.StartsWith(code + ":", StringComparison.Ordinal)
                                                       || description.StartsWith(code + " or ", StringComparison.Ordinal)),
                    $"{operation.Name} {response.Name}: '{description}' does not start with its error code.");
                errors++;
            }
        }
        Assert.True(errors > 40, $"Only {errors} error responses are described.");
    }

    [Fact]
    public async Task The_query_route_describes_its_parameters_and_headers()
    {
        var document = await ReadDocumentAsync();
        var query = document.GetProperty("paths").GetProperty("/indexes/{name}").GetProperty("get");
        var names = query.GetProperty("parameters").EnumerateArray().Select(p => p.GetProperty("name").GetString()).ToHashSet();
        Assert.Superset(new HashSet<string?> { "name", "query", "start", "pageSize", "sort", "after", "waitForNonStaleResults", "timeout", "include", "fetch", "If-None-Match", "definition" }, names);
        var put = document.GetProperty("paths").GetProperty("/docs/{id}").GetProperty("put");
        Assert.Contains(put.GetProperty("parameters").EnumerateArray(), p => p.GetProperty("name").GetString() == "If-Match" && p.GetProperty("in").GetString() == "header");
        Assert.True(put.GetProperty("requestBody").GetProperty("required").GetBoolean());
        Assert.Equal("X-Api-Key", document.GetProperty("components").GetProperty("securitySchemes").GetProperty("ApiKey").GetProperty("name").GetString());
    }

    [Fact]
    public async Task The_reference_page_is_served_with_its_script_from_the_server()
    {
        var page = await fixture.Client.GetStringAsync("/scalar/v1");
        Assert.Contains("scalar.js", page, StringComparison.Ordinal);
        var script = await fixture.Client.GetAsync("/scalar/scalar.js");
        Assert.Equal(HttpStatusCode.OK, script.StatusCode);
        Assert.True((await script.Content.ReadAsByteArrayAsync()).Length > 100_000);
    }

    /// <summary>(path as OpenAPI writes it, method) for every endpoint the server maps, less the documentation's own.</summary>
    private IEnumerable<(string Path, string Method)> RoutesAndMethods()
    {
        var sources = fixture.Server.App.Services.GetServices<EndpointDataSource>();
        foreach (var endpoint in sources.SelectMany(s => s.Endpoints).OfType<RouteEndpoint>())
        {
            var path = "/" + (endpoint.RoutePattern.RawText ?? "").TrimStart('/').Replace("{**", "{", StringComparison.Ordinal);
            if (s_documentationRoutes.Any(prefix => path.StartsWith(prefix, StringComparison.Ordinal)))
                continue;
            var methods = endpoint.Metadata.GetMetadata<HttpMethodMetadata>()?.HttpMethods
                ?? throw new InvalidOperationException($"{path} accepts any method.");
            foreach (var method in methods)
                yield return (path, method);
        }
    }

    private async Task<JsonElement> ReadDocumentAsync()
    {
        var response = await fixture.Client.GetAsync("/openapi/v1.json");
        return await JsonAssert.ReadAsync(response, HttpStatusCode.OK);
    }
}
