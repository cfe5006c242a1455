namespace RavenLite;

/// <summary>
/// The machine-readable <c>code</c> member of the server's error bodies (RFC 9457 problem details), one per kind of
/// error, and the names of the members that carry an error's data. Codes are stable: clients switch on them, never on
/// the human-readable <c>detail</c>. The HTTP status of each code is decided by the server alone.
/// </summary>
public static class ErrorCodes
{
    /// <summary>The request is malformed or names something invalid (body, key, header, query parameter).</summary>
    public const string BadRequest = "bad-request";

    /// <summary>The index query cannot be parsed, or names a field its index does not have.</summary>
    public const string QueryInvalid = "query-invalid";

    /// <summary>The <c>Host</c> header is neither a loopback name nor one the server was told to serve.</summary>
    public const string HostNotAllowed = "host-not-allowed";

    /// <summary>The server has an API key and the request's <c>X-Api-Key</c> is missing or wrong.</summary>
    public const string Unauthorized = "unauthorized";

    /// <summary>The request's API key is valid, but its scope (read, write, admin) does not cover the request.</summary>
    public const string ScopeMissing = "scope-missing";

    /// <summary>The server has no API key and the request did not arrive on a loopback address.</summary>
    public const string NotLoopback = "not-loopback";

    /// <summary>The request comes from another web site, and its origin was not allowed with <c>--cors-origins</c>.</summary>
    public const string CrossSite = "cross-site";

    /// <summary>The request would change or delete a built-in index.</summary>
    public const string BuiltInIndex = "built-in-index";

    /// <summary>No document has the key asked for.</summary>
    public const string DocumentNotFound = "document-not-found";

    /// <summary>No index has the name asked for.</summary>
    public const string IndexNotFound = "index-not-found";

    /// <summary>No route answers the request's path.</summary>
    public const string RouteNotFound = "route-not-found";

    /// <summary>The route exists, but not for the request's method.</summary>
    public const string MethodNotAllowed = "method-not-allowed";

    /// <summary>
    /// A write named an expected etag that did not match; nothing was written. Carries <see cref="KeyMember"/>,
    /// <see cref="ExpectedEtagMember"/>, <see cref="ActualEtagMember"/> and <see cref="CommandIndexMember"/>.
    /// </summary>
    public const string ConcurrencyConflict = "concurrency-conflict";

    /// <summary>The request body is larger than the server accepts.</summary>
    public const string PayloadTooLarge = "payload-too-large";

    /// <summary>The request has a body that is not declared as <c>application/json</c>.</summary>
    public const string UnsupportedMediaType = "unsupported-media-type";

    /// <summary>
    /// Waiting for an index to catch up (<c>waitForNonStaleResults</c>) ran out of time (504), or a patch or delete by
    /// query was refused because its index is stale and <c>allowStale</c> was not given (409).
    /// </summary>
    public const string IndexStale = "index-stale";

    /// <summary>No set operation has the id asked for (it finished long ago, or the server restarted).</summary>
    public const string OperationNotFound = "operation-not-found";

    /// <summary>
    /// A write found no room: the disk holding the database is full, or its LMDB map is full and may not grow. Nothing
    /// was written; the same write succeeds once space is freed.
    /// </summary>
    public const string StorageFull = "storage-full";

    /// <summary>
    /// <c>/health/ready</c>: an index cannot make progress (its every attempt fails, as on a full disk); the detail names
    /// each such index, since when, and its last error.
    /// </summary>
    public const string IndexFailing = "index-failing";

    /// <summary>
    /// A request body over 1 MiB was still arriving when its time to be read ran out (a large body holds one of a few
    /// permits while it arrives, so one sent very slowly would keep others waiting). Nothing was written; send it again.
    /// </summary>
    public const string RequestTimeout = "request-timeout";

    /// <summary>A backup was asked for while another one runs.</summary>
    public const string BackupRunning = "backup-running";

    /// <summary>No backup has the id asked for.</summary>
    public const string BackupNotFound = "backup-not-found";

    /// <summary>A JSON Patch's <c>test</c> operation did not match the document's current state: nothing was written.</summary>
    public const string PatchTestFailed = "patch-test-failed";

    /// <summary>A JSON Patch's path or operation does not fit the document: nothing was written.</summary>
    public const string PatchInvalid = "patch-invalid";

    /// <summary>
    /// The database's storage cannot be reached (PostgreSQL restarting or failing over to its standby); the request may
    /// be retried after the <c>Retry-After</c> seconds. A write that got this code either was not stored, or, when the
    /// problem's <see cref="OutcomeUnknownMember"/> is true, may have been: retry it with the same <c>If-Match</c> /
    /// <c>If-None-Match: *</c> it was first sent with, so a write that was stored is refused (409), never applied twice.
    /// </summary>
    public const string StorageUnavailable = "storage-unavailable";

    /// <summary>The server reads a read-only copy of the database (a PostgreSQL standby): it serves reads, not writes.</summary>
    public const string ReadOnly = "read-only";

    /// <summary>
    /// The request asks for more work than a server bound allows (a regular expression, wildcard or fuzzy term whose
    /// automaton is too large, too many matching terms, a patch with too many operations or growing a document past its
    /// limit): nothing was done. Carries <see cref="LimitMember"/>, the bound's name.
    /// </summary>
    public const string LimitExceeded = "limit-exceeded";

    /// <summary>A query ran longer than the server's time limit (<c>--query-timeout</c>) and was stopped.</summary>
    public const string QueryTimeout = "query-timeout";

    /// <summary>As many <c>/changes</c> streams are open as the server serves (<c>Changes:MaxConnections</c>); retry later.</summary>
    public const string TooManyConnections = "too-many-connections";

    /// <summary>
    /// Too many requests with a wrong or missing API key came from this address: its requests are refused until the
    /// <c>Retry-After</c> header's seconds have passed.
    /// </summary>
    public const string TooManyRequests = "too-many-requests";

    /// <summary>The database is closed: the server is shutting down.</summary>
    public const string Unavailable = "unavailable";

    /// <summary>Anything unexpected; the details are in the server's log only.</summary>
    public const string Internal = "internal";

    /// <summary>Every code above, in the order the documentation lists them.</summary>
    public static IReadOnlyList<string> All { get; } =
    [
        BadRequest, QueryInvalid, HostNotAllowed, Unauthorized, ScopeMissing, NotLoopback, CrossSite, BuiltInIndex, DocumentNotFound,
        IndexNotFound, RouteNotFound, MethodNotAllowed, ConcurrencyConflict, PatchTestFailed, PayloadTooLarge, UnsupportedMediaType,
        PatchInvalid, LimitExceeded, QueryTimeout, RequestTimeout, TooManyConnections, TooManyRequests, IndexStale, StorageFull, IndexFailing,
        BackupRunning, BackupNotFound, OperationNotFound, StorageUnavailable, ReadOnly, Unavailable, Internal,
    ];

    /// <summary>The member holding the code.</summary>
    public const string CodeMember = "code";

    /// <summary>Of a <see cref="StorageUnavailable"/>: true when the write may have been stored (the commit got no answer).</summary>
    public const string OutcomeUnknownMember = "outcomeUnknown";

    /// <summary>Of a <see cref="LimitExceeded"/>: the name of the bound, e.g. <c>MaxAutomatonStates</c>.</summary>
    public const string LimitMember = "limit";

    /// <summary>Of a <see cref="ConcurrencyConflict"/>: the document's key.</summary>
    public const string KeyMember = "key";

    /// <summary>Of a <see cref="ConcurrencyConflict"/>: the etag the write expected, a decimal string (<c>"0"</c>: that the document did not exist).</summary>
    public const string ExpectedEtagMember = "expectedEtag";

    /// <summary>Of a <see cref="ConcurrencyConflict"/>: the document's current etag, a decimal string; null when it does not exist.</summary>
    public const string ActualEtagMember = "actualEtag";

    /// <summary>Of a <see cref="ConcurrencyConflict"/> in a batch: the zero-based index of the command that failed; null outside a batch.</summary>
    public const string CommandIndexMember = "commandIndex";
}
