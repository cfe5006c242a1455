using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Indexes;
using RavenLite.Server.Json;

namespace RavenLite.Server.Routes;

/// <summary><c>GET /stats</c> and <c>GET /health</c>.</summary>
internal static class StatusRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/stats", GetStatsAsync);
        routes.MapGet("/health", GetHealth);
    }

    /// <summary>
    /// Every member of the database statistics (maintained counts, never a scan; whatever the statistics carry,
    /// such as cache counters, appears as it is), then <c>"StaleIndexes"</c> (the names of the indexes that have not
    /// caught up with every write) and <c>"Indexes"</c> (each index's statistics, as <c>GET /indexes</c> gives them).
    /// </summary>
    private static async Task GetStatsAsync(HttpContext context, DocumentDatabase database)
    {
        var statistics = database.GetStatistics();
        var indexes = database.GetIndexStatistics();
        var members = JsonSerializer.SerializeToElement(statistics, statistics.GetType());
        context.Response.ContentType = JsonOutput.ContentType;
        using var json = new Utf8JsonWriter(context.Response.BodyWriter, JsonOutput.WriterOptions);
        json.WriteStartObject();
        foreach (var member in members.EnumerateObject())
            member.WriteTo(json);
        json.WriteStartArray("StaleIndexes");
        foreach (var index in indexes.Where(i => i.IsStale))
            json.WriteStringValue(index.Name);
        json.WriteEndArray();
        json.WritePropertyName("Indexes");
        IndexStatisticsJson.WriteArray(json, indexes);
        json.WriteEndObject();
        json.Flush();
    }

    /// <summary>200 while the database answers a read; a closed database throws, which maps to 503.</summary>
    private static IResult GetHealth(DocumentDatabase database)
    {
        database.GetStatistics();
        return Results.Json(new HealthStatus("Ok"));
    }

    /// <summary>The body of <c>/health</c>.</summary>
    private sealed record HealthStatus(string Status);
}
