namespace RavenLite.Server.OpenApi;

/// <summary>
/// Every route's description for the OpenAPI document, keyed by method and route as the generator reports them
/// (<c>GET docs/{id}</c>). docs/http-api.md is the prose version; a test checks that every mapped route is here.
/// </summary>
internal static class RouteDescriptions
{
    private static readonly ParameterDescription s_start = new("start", ParameterPlace.Query, "integer", "Results to skip (default 0).");
    private static readonly ParameterDescription s_pageSize = new("pageSize", ParameterPlace.Query, "integer",
        "Results to return (default 128); above the maximum (1024) it is clamped and the response says so.");
    private static readonly ParameterDescription s_ifNoneMatch = new("If-None-Match", ParameterPlace.Header, "string", "An ETag: 304 without a body when it is still current.");
    private static readonly ParameterDescription s_ifMatch = new("If-Match", ParameterPlace.Header, "string", "\"<etag>\": write only if this is the current etag, else 409 and nothing is written.");
    private static readonly ParameterDescription s_entityName = new("Raven-Entity-Name", ParameterPlace.Header, "string",
        "The document's collection; every Raven-* header is stored as metadata.");
    private static readonly (string, string) s_etagHeader = ("ETag", "The document's etag, quoted.");

    public static IReadOnlyDictionary<string, RouteDescription> All { get; } = new Dictionary<string, RouteDescription>(StringComparer.OrdinalIgnoreCase)
    {
        ["GET docs/{id}"] = Document("One document: its data as the body, metadata as Raven-* headers."),
        ["HEAD docs/{id}"] = Document("One document's headers (ETag, Raven-*), without the body.") with { SuccessType = null },
        ["PUT docs/{id}"] = new("Creates or replaces a document.", "Documents")
        {
            Parameters = [s_ifMatch, s_ifNoneMatch with { Description = "*: write only if the document does not exist, else 409." }, s_entityName],
            Body = ("object", "The document: one JSON object."),
            Responses = Statuses((201, "Written: {\"Key\", \"ETag\"}."), (400, "bad-request: not one JSON object, or a bad key."), (409, "concurrency-conflict: the etag did not match; nothing was written."),
                (413, "payload-too-large: the body is larger than the server accepts.")),
            ResponseHeaders = [s_etagHeader],
        },
        ["PATCH docs/{id}"] = new("Changes part of a document with a JSON Patch (RFC 6902), applied in the write transaction to the current version: all operations or none.", "Documents")
        {
            Parameters = [s_ifMatch],
            Body = ("array", "application/json-patch+json: [{\"op\": \"add\"|\"remove\"|\"replace\"|\"move\"|\"copy\"|\"test\"|\"increment\", \"path\", \"from\", \"value\"}]."),
            Responses = Statuses((200, "Patched: {\"Key\", \"ETag\"}."), (400, "bad-request: not a JSON Patch document."), (404, "document-not-found: no such document."),
                (409, "concurrency-conflict or patch-test-failed: If-Match or a test operation failed; nothing was written."), (415, "unsupported-media-type: the body is not application/json-patch+json."),
                (422, "patch-invalid: a path or value does not fit the document; nothing was written.")),
            ResponseHeaders = [s_etagHeader],
        },
        ["DELETE docs/{id}"] = new("Deletes a document (a missing one is a no-op unless If-Match is given).", "Documents")
        {
            Parameters = [s_ifMatch],
            Responses = Statuses((204, "Deleted, or there was nothing to delete."), (409, "concurrency-conflict: If-Match did not match; nothing was deleted.")),
            SuccessType = null,
        },
        ["POST docs"] = new("Creates a document under a generated key ({entity name}/{guid}).", "Documents")
        {
            Parameters = [s_entityName],
            Body = ("object", "The document: one JSON object."),
            Responses = Statuses((201, "Written: {\"Key\", \"ETag\"}; the key is also in Location."), (400, "bad-request: not one JSON object.")),
            ResponseHeaders = [s_etagHeader, ("Location", "/docs/{key}")],
        },
        ["GET docs"] = new("A page of all documents, newest first, each with @metadata.", "Documents")
        {
            Parameters = [s_start, s_pageSize],
            Responses = Statuses((200, "{\"Start\", \"PageSize\", \"RequestedPageSize\", \"TotalResults\", \"Results\"}."), (400, "bad-request: a paging argument is not a whole number >= 0.")),
        },
        ["POST bulk_docs"] = new("Puts, deletes and patches in one transaction: all of them, or none.", "Documents")
        {
            Body = ("array", "Commands: {\"Method\": \"PUT\"|\"DELETE\"|\"PATCH\", \"Key\", \"Document\", \"Metadata\", \"Patch\" (a JSON Patch array), \"Etag\"}."),
            Responses = Statuses((200, "One result per command: {\"Method\", \"Key\", \"Etag\", \"Deleted\"}."), (400, "bad-request: a bad command (the error names its index)."),
                (409, "concurrency-conflict: an etag did not match (the error names the command in commandIndex); patch-test-failed: a patch's test did not match. Nothing was written."),
                (422, "patch-invalid: a patch's path does not fit its document.")),
            SuccessType = "array",
        },
        ["POST bulk_insert"] = new("New documents streamed as JSON lines (application/x-ndjson), written in batches as they arrive; each batch is one transaction.", "Documents")
        {
            Parameters = [new ParameterDescription("batchSize", ParameterPlace.Query, "integer", "Documents per transaction (default 1000, at most 10000).")],
            Body = ("string", "JSON lines: {\"key\", \"metadata\", \"data\", optional \"etag\" (0: must not exist)}, one per line, as ravenlite export writes them."),
            Responses = Statuses((200, "{\"Written\": n}."), (400, "bad-request: a bad line (the error names it); nothing of its batch was written, earlier batches were."),
                (409, "concurrency-conflict: an etag did not match; nothing of that batch was written, earlier batches were.")),
            SuccessType = "object",
        },
        ["POST queries"] = new("Several documents by key, read in one transaction, and the documents they refer to (include=).", "Documents")
        {
            Parameters = [s_ifNoneMatch, new("include", ParameterPlace.Query, "string", "A field path holding ids (CustomerId, Lines[].ProductId), as in index definitions; repeatable.")],
            Body = ("array", "The keys (strings)."),
            Responses = Statuses((200, "{\"Results\": [document or null, ...]} in request order, plus \"Includes\": [document, ...] with include=."),
                (304, "If-None-Match named the current answer."),
                (400, "bad-request: not an array of strings, too many keys, or a bad include path.")),
            ResponseHeaders = [("ETag", "A hash of the keys and include paths asked for and each document's current etag.")],
        },
        ["GET changes"] = new("The changes feed as Server-Sent Events: every put and delete after an etag, in etag order, then live; index caught-up events.", "Changes")
        {
            Parameters =
            [
                new("Last-Event-ID", ParameterPlace.Header, "string", "Resume after this etag (what an EventSource sends when it reconnects)."),
                new("from", ParameterPlace.Query, "string", "Start after this etag when there is no Last-Event-ID (default 0: everything)."),
                new("key", ParameterPlace.Query, "string", "Only this document (repeatable)."),
                new("prefix", ParameterPlace.Query, "string", "Only keys starting with this (repeatable)."),
                new("collection", ParameterPlace.Query, "string", "Only documents of this Raven-Entity-Name (repeatable)."),
                new("indexes", ParameterPlace.Query, "boolean", "false: no index events."),
            ],
            Responses = Statuses((200, "text/event-stream: 'put'/'delete' events (id = etag, data {\"Kind\", \"Etag\", \"Key\", \"EntityName\"}), 'index' events, ': heartbeat' comments; 'cut-off' for a client that stopped reading, 'closed' at shutdown, each with {\"Message\", \"LastEtag\"}."),
                (400, "bad-request: a bad Last-Event-ID, from or indexes.")),
            SuccessType = null,
        },
        ["GET indexes"] = new("Every index with its statistics and definition, ordered by name.", "Indexes")
        {
            Responses = Statuses((200, "[{\"Name\", \"IsBuiltIn\", \"DocumentCount\", \"LastIndexedEtag\", \"IsStale\", \"ErrorCount\", \"LastError\", \"Definition\", ...}]")),
            SuccessType = "array",
        },
        ["GET indexes/{name}"] = new("With definition=yes the index's definition; otherwise a query: a page of the documents the index matches.", "Indexes")
        {
            Parameters =
            [
                new("definition", ParameterPlace.Query, "boolean", "yes/true: answer the definition JSON instead of querying."),
                new("query", ParameterPlace.Query, "string", "Lucene syntax (Tag:Item); all documents of the index when absent."),
                s_start, s_pageSize,
                new("sort", ParameterPlace.Query, "string", "Sortable fields, most significant first, -Field for descending, separated by commas."),
                new("after", ParameterPlace.Query, "string", "The previous page's Continuation: the next page, found by seeking. Not with start."),
                new("waitForNonStaleResults", ParameterPlace.Query, "boolean", "Wait until the index has every write the database had when the request arrived."),
                new("timeout", ParameterPlace.Query, "string", "How long to wait: seconds (5, 0.5) or a time span (00:00:05); at most 300 s."),
                new("include", ParameterPlace.Query, "string",
                    "A field path holding ids (CustomerId, Lines[].ProductId), as in index definitions; the documents they name come back in \"Includes\". Repeatable."),
                new("fetch", ParameterPlace.Query, "string",
                    "A field path (Customer, Customer.Name, Lines[].ProductId), as in index definitions: each result holds only the fetched fields, " +
                    "one member per path named by it; a missing field is null, a path with [] gives an array of every value it reaches. Repeatable."),
                new("facet", ParameterPlace.Query, "string",
                    "Counts over every match per value of a typed field's kind or per range, in \"Facets\": Brand, Brand(top=5,order=value), " +
                    "Price@dec([* TO 100},[100 TO *]). Repeatable, one facet each."),
                s_ifNoneMatch,
            ],
            Responses = Statuses((200, "{\"Results\", \"TotalResults\", \"SkippedResults\", \"IsStale\", \"IndexEtag\", \"IndexTimestamp\", \"Start\", \"PageSize\", \"Continuation\"} " +
                    "(plus \"Includes\": [document, ...] with include=, \"Facets\" with facet=) or the definition."),
                (304, "If-None-Match named the current result."), (400, "query-invalid: bad query syntax; bad-request: a bad parameter, include or fetch path."), (404, "index-not-found: no such index."),
                (504, "index-stale: the index was still stale after the timeout.")),
            ResponseHeaders = [("ETag", "A hash of the index's state, the database's last etag, the query, its include and fetch paths and the included documents' etags.")],
        },
        ["PUT indexes/{name}"] = new("Creates an index or replaces its definition (then rebuilt in the background).", "Indexes")
        {
            Body = ("object", "The definition: {\"Name\"?, \"EntityName\"?, \"Fields\": [{\"Name\", \"Path\", \"Source\", \"Analysis\", \"Sort\"}]}."),
            Responses = Statuses((201, "{\"Index\", \"Changed\"}."), (400, "bad-request: an invalid definition (the error names the problem); nothing is stored."),
                (403, "built-in-index: Raven/ names belong to built-in indexes.")),
            ResponseHeaders = [("Location", "/indexes/{name}")],
        },
        ["DELETE indexes/{name}"] = new("Deletes an index and its files.", "Indexes")
        {
            Responses = Statuses((204, "Deleted."), (403, "built-in-index: Raven/ names belong to built-in indexes."), (404, "index-not-found: no such index.")),
            SuccessType = null,
        },
        ["GET stats"] = new("Database statistics: document counts, counts per entity name, the cache's counters, index statistics.", "Status")
        {
            Responses = Statuses((200, "{\"Documents\", \"LastEtag\", \"ByEntityName\", \"Cache\", \"StaleIndexes\", \"FailingIndexes\", \"LastIndexingError\", \"Indexes\"}.")),
        },
        ["GET health"] = new("Whether the database answers a read.", "Status")
        {
            Responses = Statuses((200, "{\"Status\": \"Ok\"}."), (503, "unavailable: the database is closed.")),
        },
        ["GET health/ready"] = new("Readiness: whether every index can make progress (liveness is /health).", "Status")
        {
            Responses = Statuses((200, "{\"Status\": \"Ready\"}."),
                (503, "index-failing: an index cannot make progress (the detail names it, since when and why); unavailable: the database is closed.")),
        },
        ["POST admin/backup"] = new("Starts a hot backup (documents, indexes, manifest) on a thread of its own and answers at once.", "Backups")
        {
            Parameters = [new("folder", ParameterPlace.Query, "string", "The backup's folder: absolute, or relative to --backup-dir; new or empty. Default: backup-<UTC time>.")],
            Responses = Statuses((202, "Started: its status; Location is where to follow it."), (400, "bad-request: the folder is not empty."),
                (409, "backup-running: another backup is running.")),
            ResponseHeaders = [("Location", "/admin/backups/{id}")],
        },
        ["GET admin/backups"] = new("The backups this server ran (newest first) and those found in --backup-dir.", "Backups")
        {
            Responses = Statuses((200, "[{\"Id\", \"Folder\", \"State\", \"Step\", \"StartedAt\", \"FinishedAt\", \"LastEtag\", \"Documents\", \"Bytes\", \"Error\"}].")),
        },
        ["GET admin/backups/{id}"] = new("One backup's status: Running (with its Step), Succeeded or Failed (with its Error).", "Backups")
        {
            Responses = Statuses((200, "{\"Id\", \"State\", \"Step\", ...}."), (404, "backup-not-found: no such backup.")),
        },
    };

    private static RouteDescription Document(string summary) => new(summary, "Documents")
    {
        Parameters = [s_ifNoneMatch],
        Responses = Statuses((200, "The document's data (JSON)."), (304, "If-None-Match named the current etag."), (404, "document-not-found: no such document.")),
        ResponseHeaders = [s_etagHeader, ("Raven-Entity-Name", "Metadata, one Raven-* header per member."), ("Last-Modified", "When it was written.")],
    };

    private static Dictionary<int, string> Statuses(params (int Status, string Description)[] statuses) =>
        statuses.ToDictionary(s => s.Status, s => s.Description);
}
