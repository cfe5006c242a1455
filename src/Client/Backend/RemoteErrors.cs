namespace RavenLite.Client.Backend;

/// <summary>
/// The server's error codes turned back into the exceptions the embedded database throws, so callers catch the same
/// types whichever store they use. Only the problem's <c>code</c> and members decide; the message is passed on as it is.
/// </summary>
internal static class RemoteErrors
{
    /// <summary>The exception for an error answer to a request; <paramref name="indexName"/> for a query's.</summary>
    public static Exception ToException(RemoteError error, string? indexName = null) => error.Code switch
    {
        ErrorCodes.ConcurrencyConflict when error.Key is { } key =>
            new ConcurrencyException(key, error.ExpectedEtag, error.ActualEtag, error.CommandIndex),
        ErrorCodes.IndexNotFound when indexName is not null => new IndexNotFoundException(indexName),
        ErrorCodes.QueryInvalid => new QueryException(error.Message),
        ErrorCodes.LimitExceeded => new LimitExceededException(error.Message),
        ErrorCodes.BadRequest or ErrorCodes.PayloadTooLarge => new ArgumentException(error.Message),
        ErrorCodes.PatchTestFailed => new PatchException(error.Message, testFailed: true),
        ErrorCodes.PatchInvalid => new PatchException(error.Message, testFailed: false),
        ErrorCodes.IndexStale => new TimeoutException(error.Message),
        ErrorCodes.StorageFull => new StorageFullException(error.Message),
        ErrorCodes.StorageUnavailable => new StorageUnavailableException(error.Message, readOnly: false, error.OutcomeUnknown),
        ErrorCodes.ReadOnly => new StorageUnavailableException(error.Message, readOnly: true, outcomeUnknown: false),
        ErrorCodes.Unavailable => new ObjectDisposedException("RavenLite server", error.Message),
        // Refusals the embedded database has no counterpart for (API key, origin, routing) and server faults keep
        // their status, so callers can still tell them apart.
        _ => new HttpRequestException(error.Message, null, (System.Net.HttpStatusCode)error.Status),
    };
}
