using System.Text.Json;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Indexing.Definitions;
using RavenLite.Server.Errors;
using RavenLite.Server.Http;
using RavenLite.Server.Indexes;
using RavenLite.Server.Json;
using RavenLite.Server.OpenApi;

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
        routes.MapGet("/indexes", ListAsync)
            .Describe(new RouteDescription("Every index with its statistics and definition, ordered by name.", "Indexes")
            {
                Responses = RouteDocs.Statuses((200, "[{\"Name\", \"IsBuiltIn\", \"DocumentCount\", \"LastIndexedEtag\", \"IsStale\", \"ErrorCount\", \"LastError\", \"Definition\", ...}]")),
                SuccessType = "array",
            });
        routes.MapGet("/indexes/{**name}", GetAsync)
            .Describe(new RouteDescription("With definition=yes the index's definition; {name}/morelikethis/{id} the documents most like {id} " +
                "(fields, minTermFreq, minDocFreq, maxQueryTerms, start, pageSize); otherwise a query: a page of the documents the index matches.", "Indexes")
            {
                Parameters =
                [
                    new ParameterDescription("definition", ParameterPlace.Query, "boolean", "yes/true: answer the definition JSON instead of querying."),
                    new ParameterDescription("query", ParameterPlace.Query, "string", "Lucene syntax (Tag:Item); all documents of the index when absent."),
                    RouteDocs.Start, RouteDocs.PageSize,
                    new ParameterDescription("sort", ParameterPlace.Query, "string",
                        "Sortable fields, most significant first, -Field for descending, separated by commas; score first orders by relevance (BM25), with @index-score in each result's @metadata."),
                    new ParameterDescription("highlight", ParameterPlace.Query, "string",
                        "A full-text field: each result's @metadata gets @highlights, its best fragments with the matched terms in <b></b> and the rest HTML-escaped. Repeatable; " +
                        "highlightFragments (3), highlightFragmentLength (150), highlightPreTag and highlightPostTag tune it."),
                    new ParameterDescription("after", ParameterPlace.Query, "string", "The previous page's Continuation: the next page, found by seeking. Not with start."),
                    new ParameterDescription("waitForNonStaleResults", ParameterPlace.Query, "boolean", "Wait until the index has every write the database had when the request arrived."),
                    new ParameterDescription("timeout", ParameterPlace.Query, "string", "How long to wait: seconds (5, 0.5) or a time span (00:00:05); at most 300 s."),
                    new ParameterDescription("include", ParameterPlace.Query, "string",
                        "A field path holding ids (CustomerId, Lines[].ProductId), as in index definitions; the documents they name come back in \"Includes\". Repeatable."),
                    new ParameterDescription("fetch", ParameterPlace.Query, "string",
                        "A field path (Customer, Customer.Name, Lines[].ProductId), as in index definitions: each result holds only the fetched fields, " +
                        "one member per path named by it; a missing field is null, a path with [] gives an array of every value it reaches. Repeatable."),
                    new ParameterDescription("facet", ParameterPlace.Query, "string",
                        "Counts over every match per value of a typed field's kind or per range, in \"Facets\": Brand, Brand(top=5,order=value), " +
                        "Price@dec([* TO 100},[100 TO *]). Repeatable, one facet each."),
                    RouteDocs.IfNoneMatch,
                ],
                Responses = RouteDocs.Statuses((200, "{\"Results\", \"TotalResults\", \"SkippedResults\", \"IsStale\", \"IndexEtag\", \"IndexTimestamp\", \"Start\", \"PageSize\", \"Continuation\"} " +
                        "(plus \"Includes\": [document, ...] with include=, \"Facets\" with facet=) or the definition."),
                    (304, "If-None-Match named the current result."), (400, "query-invalid: bad query syntax; bad-request: a bad parameter, include or fetch path."), (404, "index-not-found: no such index."),
                    (504, "index-stale: the index was still stale after the timeout.")),
                ResponseHeaders = [("ETag", "A hash of the index's state, the database's last etag, the query, its include and fetch paths and the included documents' etags.")],
            });
        routes.MapPut("/indexes/{**name}", PutAsync)
            .Describe(new RouteDescription("Creates an index or replaces its definition (then rebuilt in the background).", "Indexes")
            {
                Body = ("object", "The definition: {\"Name\"?, \"EntityName\"?, \"Fields\": [{\"Name\", \"Path\", \"Source\", \"Analysis\", \"Sort\"}]}."),
                Responses = RouteDocs.Statuses((201, "{\"Index\", \"Changed\"}."), (400, "bad-request: an invalid definition (the error names the problem); nothing is stored."),
                    (403, "built-in-index: Raven/ names belong to built-in indexes.")),
                ResponseHeaders = [("Location", "/indexes/{name}")],
            });
        routes.MapDelete("/indexes/{**name}", Delete)
            .Describe(new RouteDescription("Deletes an index and its files.", "Indexes")
            {
                Responses = RouteDocs.Statuses((204, "Deleted."), (403, "built-in-index: Raven/ names belong to built-in indexes."), (404, "index-not-found: no such index.")),
                SuccessType = null,
            });
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
