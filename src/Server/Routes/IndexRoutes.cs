using System.Text.Json;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;
using RavenLite.Server.Json;

namespace RavenLite.Server.Routes;

/// <summary>
/// Indexes: <c>GET /indexes</c> (with statistics), <c>GET /indexes/{name}?definition=yes</c>,
/// <c>PUT /indexes/{name}</c>, <c>DELETE /indexes/{name}</c>, and queries
/// (<c>GET /indexes/{name}?query=...</c>, <see cref="IndexQueryRoute"/>) and more like this
/// (<c>GET /indexes/{name}/morelikethis/{id}</c>, <see cref="MoreLikeThisRoute"/>).
/// </summary>
internal static class IndexRoutes
{
    /// <summary>Adds the routes. Index names may contain <c>/</c> (<c>Raven/DocumentsByEntityName</c>), hence the catch-all.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/indexes", ListAsync);
        routes.MapGet("/indexes/{**name}", GetAsync);
        routes.MapPut("/indexes/{**name}", PutAsync);
        routes.MapDelete("/indexes/{**name}", Delete);
    }

    /// <summary><c>[{statistics..., "Definition": {...}}, ...]</c>, ordered by name, built-in indexes included.</summary>
    private static async Task ListAsync(HttpContext context, DocumentDatabase database)
    {
        var statistics = database.GetIndexStatistics();
        var definitions = database.GetIndexes();
        context.Response.ContentType = JsonOutput.ContentType;
        using var json = new Utf8JsonWriter(context.Response.BodyWriter, JsonOutput.WriterOptions);
        IndexStatisticsJson.WriteArray(json, statistics, definitions);
        await json.FlushAsync(context.RequestAborted);
    }

    /// <summary>
    /// With <c>definition=yes</c> the definition JSON (what PUT takes); <c>{name}/morelikethis/{id}</c> is more like this
    /// (<see cref="MoreLikeThisRoute"/>); otherwise a query.
    /// </summary>
    private static async Task GetAsync(HttpContext context, DocumentDatabase database, string? name)
    {
        var indexName = RequireName(name);
        if (indexName.IndexOf(MoreLikeThisRoute.Segment, StringComparison.Ordinal) is var split and > 0)
        {
            await MoreLikeThisRoute.RunAsync(context, database, indexName[..split], indexName[(split + MoreLikeThisRoute.Segment.Length)..]);
            return;
        }
        if (!QueryParameters.GetBoolean(context.Request, "definition", false))
        {
            await IndexQueryRoute.QueryAsync(context, database, context.RequestServices.GetRequiredService<QueryResponseCache>(), indexName);
            return;
        }
        var definition = database.GetIndex(indexName) ?? throw new IndexNotFoundException(indexName);
        context.Response.ContentType = JsonOutput.ContentType;
        await context.Response.WriteAsync(definition.ToJson(), context.RequestAborted);
    }

    /// <summary>Creates or replaces the index (which is then rebuilt); 201 with <c>{"Index", "Changed"}</c>.</summary>
    private static async Task<IResult> PutAsync(HttpContext context, DocumentDatabase database, RavenLiteServerOptions options, string? name)
    {
        var indexName = RequireName(name);
        RefuseBuiltIn(indexName, "changed");
        var body = await RequestBody.ReadAsync(context.Request, options.MaxRequestBodyBytes);
        var definition = IndexDefinitionBody.Read(body, indexName);
        // Synchronous: stores the definition and swaps the index in; the rebuild happens on the indexer's thread.
        var changed = database.PutIndex(definition);
        var location = "/indexes/" + string.Join('/', definition.Name.Split('/').Select(Uri.EscapeDataString));
        return Results.Created(location, new PutIndexResult(definition.Name, changed));
    }

    private static IResult Delete(DocumentDatabase database, string? name)
    {
        var indexName = RequireName(name);
        RefuseBuiltIn(indexName, "deleted");
        database.DeleteIndex(indexName);
        return Results.NoContent();
    }

    /// <summary>403 for the reserved <c>Raven/</c> names: the built-in indexes are part of every database.</summary>
    private static void RefuseBuiltIn(string indexName, string what)
    {
        if (IndexName.IsReserved(indexName))
            throw RequestException.BuiltInIndex(
                $"'{indexName}': index names starting with '{IndexName.ReservedPrefix}' belong to built-in indexes, which cannot be {what}.");
    }

    private static string RequireName(string? name) =>
        string.IsNullOrEmpty(name) ? throw RequestException.BadRequest("An index name is required: /indexes/{name}.") : name;

    /// <summary>The body of a PUT's 201: the index's name and whether the definition changed (false: it was already in place).</summary>
    private sealed record PutIndexResult(string Index, bool Changed);
}
