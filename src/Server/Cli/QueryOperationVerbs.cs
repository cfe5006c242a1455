using System.CommandLine;
using System.Globalization;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using RavenLite.Database;
using RavenLite.Server.Security;

namespace RavenLite.Server.Cli;

/// <summary>
/// <c>ravenlite patch-by-query</c> and <c>delete-by-query</c>: a set operation over what an index query matches, on a
/// running server (<c>--url</c>: <c>PATCH</c>/<c>DELETE /bulk_docs/{index}</c>, then following <c>/operations/{id}</c>)
/// or on a database folder no server has open (<c>--data-dir</c>), once the index has caught up (unless
/// <c>--allow-stale</c>; at most 5 minutes). Prints the outcome;
/// a failed, stopped or cancelled operation is a failure (exit code 1), with what was committed before it.
/// </summary>
internal static class QueryOperationVerbs
{
    private static readonly TimeSpan s_poll = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan s_catchUp = TimeSpan.FromMinutes(5);
    private static readonly JsonSerializerOptions s_json = new() { PropertyNameCaseInsensitive = true };

    private static readonly Argument<string> s_index = new("index") { Description = "the index whose query chooses the documents (Auto/... and Raven/... included)" };
    private static readonly Option<string> s_query = new("--query") { Description = "Lucene syntax (Group:g3); every document of the index when absent", HelpName = "query" };
    private static readonly Option<string> s_patch = new("--patch") { Description = "the JSON Patch: a file, or the JSON itself ([{\"op\":\"replace\",...}], increments included)", HelpName = "file|json" };
    private static readonly Option<bool> s_allowStale = new("--allow-stale") { Description = "act on what a stale index matches now instead of refusing" };
    private static readonly Option<bool> s_stopOnFailure = new("--stop-on-failure") { Description = "stop at the first document the patch refuses instead of reporting it and going on" };

    /// <summary><c>ravenlite patch-by-query</c>.</summary>
    public static Verb PatchVerb { get; } = new("patch-by-query",
        "Apply a JSON Patch to every document an index query matches, in batches of one transaction each; a document the" +
        " patch refuses (a failed test) is left whole and reported.",
        [s_index, s_query, s_patch, s_allowStale, s_stopOnFailure, CliOptions.DataDir, CliOptions.Url, CliOptions.ApiKey], RunAsync);

    /// <summary><c>ravenlite delete-by-query</c>.</summary>
    public static Verb DeleteVerb { get; } = new("delete-by-query",
        "Delete every document an index query matches, in batches of one transaction each.",
        [s_index, s_query, s_allowStale, CliOptions.DataDir, CliOptions.Url, CliOptions.ApiKey], RunAsync);

    private static async Task<string> RunAsync(ParseResult parsed, TextWriter error, CancellationToken cancellationToken)
    {
        var patching = parsed.CommandResult.Command.Name == PatchVerb.Name;
        var index = parsed.GetValue(s_index) ?? throw new ArgumentException("Name the index whose query chooses the documents.");
        var query = parsed.GetValue(s_query);
        var patch = patching ? PatchText(parsed.GetValue(s_patch)) : null;
        var dataDirectory = parsed.GetValue(CliOptions.DataDir);
        var url = parsed.GetValue(CliOptions.Url);
        if ((dataDirectory is null) == (url is null))
            throw new ArgumentException("Give either --data-dir <folder> or --url <server address>.");
        var allowStale = parsed.GetValue(s_allowStale);
        var stopOnFailure = patching && parsed.GetValue(s_stopOnFailure);
        var status = url is not null
            ? await OnServerAsync(ToolArguments.ServerUrl(url), parsed.GetValue(CliOptions.ApiKey), index, query, patch, allowStale, stopOnFailure, error, cancellationToken)
            : await OnFolderAsync(dataDirectory!, index, query, patch, allowStale, stopOnFailure, cancellationToken);
        return Outcome(status);
    }

    /// <summary>The patch from a file when one has that name, else the text as given.</summary>
    private static string PatchText(string? given)
    {
        if (string.IsNullOrWhiteSpace(given))
            throw new ArgumentException("Give the JSON Patch with --patch <file|json>.");
        return File.Exists(given) ? File.ReadAllText(given) : given;
    }

    private static async Task<SetOperationStatus> OnServerAsync(Uri url, string? apiKey, string index, string? query, string? patch,
        bool allowStale, bool stopOnFailure, TextWriter error, CancellationToken cancellationToken)
    {
        using var client = new HttpClient { BaseAddress = url, Timeout = s_catchUp + TimeSpan.FromMinutes(1) };
        if (apiKey is not null)
            client.DefaultRequestHeaders.Add(ApiKeyMiddleware.HeaderName, apiKey);
        var indexPath = string.Join('/', index.Split('/').Select(Uri.EscapeDataString));
        var queryPart = query is null ? "" : "&query=" + Uri.EscapeDataString(query);
        var target = "bulk_docs/" + indexPath + "?allowStale=" + (allowStale ? "true" : "false") + queryPart + (stopOnFailure ? "&stopOnFailure=true" : "");
        using var request = new HttpRequestMessage(patch is null ? HttpMethod.Delete : HttpMethod.Patch, target);
        if (patch is not null)
            request.Content = new StringContent(patch, new MediaTypeHeaderValue("application/json-patch+json"));
        try
        {
            // As on a folder: an index catching up with recent writes is waited for, not refused.
            if (!allowStale)
            {
                using var caughtUp = await client.GetAsync(string.Create(CultureInfo.InvariantCulture,
                    $"indexes/{indexPath}?pageSize=0&waitForNonStaleResults=true&timeout={s_catchUp.TotalSeconds}{queryPart}"), cancellationToken);
                if (!caughtUp.IsSuccessStatusCode)
                    await ReadAsync(caughtUp, cancellationToken);
            }
            using var started = await client.SendAsync(request, cancellationToken);
            var status = await ReadAsync(started, cancellationToken);
            var location = started.Headers.Location ?? throw new TransferException("The server started the operation but did not say where to follow it.");
            var processed = -1;
            while (status.State == SetOperationState.Running)
            {
                if (status.Processed != processed)
                    await error.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"  {processed = status.Processed:N0} of {status.Matched:N0} ..."));
                await Task.Delay(s_poll, cancellationToken);
                using var response = await client.GetAsync(location, cancellationToken);
                status = await ReadAsync(response, cancellationToken);
            }
            return status;
        }
        catch (HttpRequestException ex)
        {
            throw new TransferException($"Cannot reach the server at {url}: {ex.Message}", ex);
        }
    }

    private static async Task<SetOperationStatus> ReadAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (response.IsSuccessStatusCode)
        {
            return await response.Content.ReadFromJsonAsync<SetOperationStatus>(s_json, cancellationToken)
                ?? throw new TransferException("The server answered with no status.");
        }
        var body = await response.Content.ReadAsStringAsync(cancellationToken);
        string? detail = null;
        try
        {
            using var problem = JsonDocument.Parse(body);
            if (problem.RootElement.ValueKind == JsonValueKind.Object && problem.RootElement.TryGetProperty("detail", out var text))
                detail = text.GetString();
        }
        catch (JsonException)
        {
            // Not problem details (a proxy's page): the status says enough.
        }
        throw new TransferException($"The server answered {(int)response.StatusCode}: {detail ?? body}");
    }

    private static async Task<SetOperationStatus> OnFolderAsync(string dataDirectory, string index, string? query, string? patch,
        bool allowStale, bool stopOnFailure, CancellationToken cancellationToken)
    {
        var parsedPatch = patch is null ? null : DocumentPatch.Parse(patch);
        using var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = dataDirectory });
        // A database just opened may be catching its indexes up: wait for this one, so "stale" means what it does on a server.
        if (!allowStale)
            await database.QueryAsync(index, new IndexQuery { Query = query, PageSize = 0, WaitForNonStaleResults = true, Timeout = s_catchUp }, cancellationToken: cancellationToken);
        var options = new SetOperationOptions { AllowStale = allowStale, StopOnFailure = stopOnFailure };
        var operation = parsedPatch is null
            ? database.DeleteByQuery(index, query, options)
            : database.PatchByQuery(index, query, parsedPatch, options);
        using var cancel = cancellationToken.Register(operation.Cancel);
        return await operation.Completion;
    }

    private static string Outcome(SetOperationStatus status)
    {
        var verb = status.Kind == SetOperationKind.Patch ? "Patched" : "Deleted";
        var refused = status.FailedCount == 0 ? "" : string.Create(CultureInfo.InvariantCulture,
            $"; {status.FailedCount:N0} refused, left as they were (first: {status.Failures[0].Key}: {status.Failures[0].Error})");
        var line = string.Create(CultureInfo.InvariantCulture,
            $"{verb} {status.Changed:N0} of the {status.Matched:N0} documents '{status.IndexName}' matched{refused}.");
        return status.State == SetOperationState.Completed
            ? line
            : throw new TransferException($"The operation {status.State.ToString().ToLowerInvariant()}: {status.Error ?? "no reason given"}. {line}");
    }
}
