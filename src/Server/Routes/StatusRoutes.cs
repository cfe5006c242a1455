using System.Text.Json;
using RavenLite.Database;
using RavenLite.Indexing;
using RavenLite.Server.Indexes;
using RavenLite.Server.Json;

namespace RavenLite.Server.Routes;

/// <summary><c>GET /stats</c>, <c>GET /health</c> (liveness) and <c>GET /health/ready</c> (readiness).</summary>
internal static class StatusRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/stats", GetStatsAsync);
        routes.MapGet("/health", GetHealth);
        routes.MapGet("/health/ready", GetReadiness);
    }

    /// <summary>
    /// Every member of the database statistics (maintained counts, never a scan; whatever the statistics carry,
    /// such as cache counters, appears as it is), then <c>"StaleIndexes"</c> (the names of the indexes that have not
    /// caught up with every write), <c>"FailingIndexes"</c> (those that cannot make progress), <c>"LastIndexingError"</c>
    /// (the most recent of any index, with its time; null when none) and <c>"Indexes"</c> (each index's statistics, as <c>GET /indexes</c> gives them).
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
        json.WriteStartArray("FailingIndexes");
        foreach (var index in indexes.Where(i => i.FailingSince is not null))
            json.WriteStringValue(index.Name);
        json.WriteEndArray();
        json.WritePropertyName("LastIndexingError");
        var lastError = indexes.Select(i => i.LastError).OfType<IndexingError>().MaxBy(e => e.At);
        JsonSerializer.Serialize(json, lastError);
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

    /// <summary>
    /// 200 while the database answers and every index can make progress; 503 while one cannot (a full disk, say), with
    /// each such index, since when, and its last error. Stale indexes that are catching up are ready.
    /// </summary>
    private static IResult GetReadiness(DocumentDatabase database)
    {
        var failing = database.GetIndexStatistics().Where(i => i.FailingSince is not null)
            .Select(i => new FailingIndex(i.Name, i.FailingSince!.Value, i.LastError?.Message))
            .ToList();
        return failing.Count == 0
            ? Results.Json(new ReadinessStatus("Ready", failing))
            : Results.Json(new ReadinessStatus("NotReady", failing), statusCode: StatusCodes.Status503ServiceUnavailable);
    }

    /// <summary>The body of <c>/health</c>.</summary>
    private sealed record HealthStatus(string Status);

    /// <summary>The body of <c>/health/ready</c>.</summary>
    private sealed record ReadinessStatus(string Status, IReadOnlyList<FailingIndex> FailingIndexes);

    /// <summary>An index that cannot make progress: since when, and why.</summary>
    private sealed record FailingIndex(string Name, DateTimeOffset Since, string? LastError);
}
