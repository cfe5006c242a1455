using RavenLite.Database;
using RavenLite.Server.Http;
using RavenLite.Server.Json;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary><c>GET /docs?start=&amp;pageSize=</c>: a page of all documents, newest first.</summary>
internal static class DocumentListRoutes
{
    /// <summary>Adds the route.</summary>
    public static void Map(IEndpointRouteBuilder routes) => routes.MapGet("/docs", GetPageAsync)
            .Describe(new RouteDescription("A page of all documents, newest first, each with @metadata.", "Documents")
            {
                Parameters = [RouteDocs.Start, RouteDocs.PageSize],
                Responses = RouteDocs.Statuses((200, "{\"Start\", \"PageSize\", \"RequestedPageSize\", \"TotalResults\", \"Results\"}."), (400, "bad-request: a paging argument is not a whole number >= 0.")),
            });

    /// <summary>
    /// Writes <c>{"Start","PageSize","RequestedPageSize","TotalResults","Results":[...]}</c>. <c>PageSize</c> is the size
    /// applied: when the request asked for more than the maximum, it is the maximum and differs from
    /// <c>RequestedPageSize</c>, so a clamp is never silent.
    /// </summary>
    private static async Task GetPageAsync(HttpContext context, DocumentDatabase database)
    {
        var start = QueryParameters.GetNonNegativeInt(context.Request, "start", 0);
        var requested = QueryParameters.GetNonNegativeInt(context.Request, "pageSize", database.Options.DefaultPageSize);
        var pageSize = Math.Min(requested, database.Options.MaxPageSize);
        var total = database.GetStatistics().Documents;
        var page = database.GetDocuments(start, pageSize);

        context.Response.ContentType = JsonOutput.ContentType;
        using var writer = new DocumentJsonWriter(context.Response.BodyWriter);
        writer.Raw("{\"Start\":"u8);
        writer.Number(start);
        writer.Raw(",\"PageSize\":"u8);
        writer.Number(pageSize);
        writer.Raw(",\"RequestedPageSize\":"u8);
        writer.Number(requested);
        writer.Raw(",\"TotalResults\":"u8);
        writer.Number(total);
        writer.Raw(",\"Results\":["u8);
        await writer.DocumentsAsync(page, context.RequestAborted);
        writer.Raw("]}"u8);
        await writer.FlushAsync(context.RequestAborted);
    }
}
