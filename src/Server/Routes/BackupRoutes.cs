using RavenLite.Server.Backups;
using RavenLite.Server.Errors;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /admin/backup</c>, <c>GET /admin/backups</c> and <c>GET /admin/backups/{id}</c>.</summary>
internal static class BackupRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapPost("/admin/backup", Start);
        routes.MapGet("/admin/backups", (BackupJobs jobs) => Results.Json(jobs.List()));
        routes.MapGet("/admin/backups/{id}", Get);
    }

    /// <summary>
    /// Starts a backup on a thread of its own and answers 202 at once with its status and, in <c>Location</c>, where to
    /// follow it. <c>?folder=</c> names the folder inside the backup directory (new or empty; see <see cref="BackupFolder"/>).
    /// </summary>
    private static IResult Start(HttpContext context, BackupJobs jobs, string? folder)
    {
        var status = jobs.Start(string.IsNullOrWhiteSpace(folder) ? null : folder).Status();
        context.Response.Headers.Location = "/admin/backups/" + Uri.EscapeDataString(status.Id);
        return Results.Json(status, statusCode: StatusCodes.Status202Accepted);
    }

    private static IResult Get(BackupJobs jobs, string id) =>
        jobs.Find(id) is { } status
            ? Results.Json(status)
            : throw new RequestException(StatusCodes.Status404NotFound, ErrorCodes.BackupNotFound, $"No backup '{id}'; GET /admin/backups lists them.");
}
