using System.Text.Json;
using System.Globalization;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Indexing;
using RavenLite.Server.Indexes;
using RavenLite.Server.Json;
using RavenLite.Storage;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary><c>GET /stats</c>, <c>GET /health</c> (liveness) and <c>GET /health/ready</c> (readiness).</summary>
internal static class StatusRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapGet("/stats", GetStatsAsync)
            .Describe(new RouteDescription("Database statistics: document counts, counts per entity name, the cache's counters, index statistics.", "Status")
            {
                Responses = RouteDocs.Statuses((200, "{\"Documents\", \"LastEtag\", \"ByEntityName\", \"Cache\", \"StaleIndexes\", \"FailingIndexes\", \"LastIndexingError\", \"Indexes\"}.")),
            });
        routes.MapGet("/health", GetHealth)
            .Describe(new RouteDescription("Whether the database answers a read.", "Status")
            {
                Responses = RouteDocs.Statuses((200, "{\"Status\": \"Ok\"}."), (503, "unavailable: the database is closed.")),
            });
        routes.MapGet("/health/ready", GetReadiness)
            .Describe(new RouteDescription("Readiness: whether every index can make progress (liveness is /health).", "Status")
            {
                Responses = RouteDocs.Statuses((200, "{\"Status\": \"Ready\"}."),
                    (503, "index-failing: an index cannot make progress (the detail names it, since when and why); unavailable: the database is closed.")),
            });
    }

    /// <summary>
    /// Every member of the database statistics (maintained counts, never a scan; whatever the statistics carry,
    /// such as cache counters, appears as it is), then <c>"StaleIndexes"</c> (the names of the indexes that have not
    /// caught up with every write), <c>"FailingIndexes"</c> (those that cannot make progress), <c>"LastIndexingError"</c>
    /// (the most recent of any index, with its time; null when none), <c>"Indexes"</c> (each index's statistics, as <c>GET /indexes</c> gives them)
    /// and <c>"Replication"</c> (on PostgreSQL: whether it reads a standby, and the standby's lag; null on LMDB).
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
        WriteReplication(json, database.GetReplicationStatus());
        json.WriteEndObject();
        json.Flush();
    }

    /// <summary>
    /// <c>{"IsStandby": true, "LagMilliseconds": 12.5, "LastReplayedCommitAt": "..."}</c> (the lag is 0 when the
    /// standby has replayed all it received; both null on a primary), or null with an engine of one process.
    /// </summary>
    private static void WriteReplication(Utf8JsonWriter json, ReplicationStatus? replication)
    {
        if (replication is null)
        {
            json.WriteNull("Replication");
            return;
        }
        json.WriteStartObject("Replication");
        json.WriteBoolean("IsStandby", replication.IsStandby);
        if (replication.Lag is { } lag)
            json.WriteNumber("LagMilliseconds", Math.Round(lag.TotalMilliseconds, 1));
        else
            json.WriteNull("LagMilliseconds");
        if (replication.LastReplayedCommitAt is { } at)
            json.WriteString("LastReplayedCommitAt", at);
        else
            json.WriteNull("LastReplayedCommitAt");
        json.WriteEndObject();
    }

    /// <summary>200 while the database answers a read; a closed database throws, which maps to 503.</summary>
    private static IResult GetHealth(DocumentDatabase database)
    {
        database.GetStatistics();
        return Results.Json(new HealthStatus("Ok"));
    }

    /// <summary>
    /// 200 while the database answers and every index can make progress; while one cannot (a full disk, say), 503 with
    /// the <c>index-failing</c> problem naming each such index, since when, and its last error. Stale indexes that are
    /// catching up are ready.
    /// </summary>
    private static IResult GetReadiness(DocumentDatabase database)
    {
        var failing = database.GetIndexStatistics().Where(i => i.FailingSince is not null).ToList();
        if (failing.Count == 0)
            return Results.Json(new HealthStatus("Ready"));
        throw new RequestException(StatusCodes.Status503ServiceUnavailable, ErrorCodes.IndexFailing,
            "Not ready: " + string.Join("; ", failing.Select(i =>
                string.Create(CultureInfo.InvariantCulture, $"index '{i.Name}' cannot make progress since {i.FailingSince:u}: {i.LastError?.Message}"))));
    }

    /// <summary>The body of <c>/health</c>.</summary>
    private sealed record HealthStatus(string Status);
}
