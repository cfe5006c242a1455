using RavenLite.Server.Backups;
using RavenLite.Server.Errors;
using RavenLite.Server.OpenApi;

namespace RavenLite.Server.Routes;

/// <summary><c>POST /admin/backup</c>, <c>GET /admin/backups</c> and <c>GET /admin/backups/{id}</c>.</summary>
internal static class BackupRoutes
{
    /// <summary>Adds the routes.</summary>
    public static void Map(IEndpointRouteBuilder routes)
    {
        routes.MapPost("/admin/backup", Start)
            .Describe(new RouteDescription("Starts a hot backup (documents, indexes, manifest) on a thread of its own and answers at once.", "Backups")
            {
                Parameters = [new ParameterDescription("folder", ParameterPlace.Query, "string", "The backup's folder: absolute, or relative to --backup-dir; new or empty. Default: backup-<UTC time>.")],
                Responses = RouteDocs.Statuses((202, "Started: its status; Location is where to follow it."), (400, "bad-request: the folder is not empty."),
                    (409, "backup-running: another backup is running.")),
                ResponseHeaders = [("Location", "/admin/backups/{id}")],
            });
        routes.MapGet("/admin/backups", (BackupJobs jobs) => Results.Json(jobs.List()))
            .Describe(new RouteDescription("The backups this server ran (newest first) and those found in --backup-dir.", "Backups")
            {
                Responses = RouteDocs.Statuses((200, "[{\"Id\", \"Folder\", \"State\", \"Step\", \"StartedAt\", \"FinishedAt\", \"LastEtag\", \"Documents\", \"Bytes\", \"Error\"}].")),
            });
        routes.MapGet("/admin/backups/{id}", Get)
            .Describe(new RouteDescription("One backup's status: Running (with its Step), Succeeded or Failed (with its Error).", "Backups")
            {
                Responses = RouteDocs.Statuses((200, "{\"Id\", \"State\", \"Step\", ...}."), (404, "backup-not-found: no such backup.")),
            });
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
