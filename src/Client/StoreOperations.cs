using RavenLite.Client.Backend;
using RavenLite.Client.Serialization;

namespace RavenLite.Client;

/// <summary>
/// Operations over many documents at once: patch and delete by index query. Each starts at once on the database,
/// changes the matching documents in batches of one transaction each, and is followed through the
/// <see cref="StoreOperation"/> it returns. The same calls work embedded and remote.
/// </summary>
/// <example>
/// <code>
/// var operation = await store.Operations.PatchByQueryAsync("Orders/ByStatus", "Status:open",
///     """[{"op":"replace","path":"/Status","value":"archived"}]""");
/// var status = await operation.WaitForCompletionAsync();
/// </code>
/// </example>
public sealed class StoreOperations
{
    private readonly IStoreBackend _backend;

    internal StoreOperations(IStoreBackend backend) => _backend = backend;

    /// <summary>
    /// Starts applying <paramref name="jsonPatch"/> (a JSON Patch document, RFC 6902, plus <c>increment</c>) to every
    /// document <paramref name="query"/> matches on <paramref name="indexName"/>. Each document is patched at its current
    /// version inside its batch's transaction, so a write made meanwhile is kept; one the patch refuses (a failed
    /// <c>test</c>) is left as it was and listed in the status. See docs/operations.md.
    /// </summary>
    /// <param name="indexName">The index.</param>
    /// <param name="query">Lucene syntax; null matches every document of the index.</param>
    /// <param name="jsonPatch">The JSON Patch array.</param>
    /// <param name="allowStale">Whether a stale index may answer; otherwise <see cref="IndexStaleException"/>.</param>
    /// <param name="stopOnFailure">Whether the first refused document stops the operation; otherwise it is skipped.</param>
    /// <param name="cancellationToken">Cancels starting it (not the operation: <see cref="StoreOperation.CancelAsync"/>).</param>
    /// <exception cref="IndexStaleException">The index is stale and <paramref name="allowStale"/> is false; nothing was changed.</exception>
    /// <exception cref="ArgumentException">The patch is not a JSON Patch document.</exception>
    public async Task<StoreOperation> PatchByQueryAsync(string indexName, string? query, string jsonPatch, bool allowStale = false,
        bool stopOnFailure = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        ArgumentNullException.ThrowIfNull(jsonPatch);
        var status = await _backend.StartSetOperationAsync(
            new SetOperationRequest(indexName, query, EntitySerializer.ToUtf8(jsonPatch, "The patch", nameof(jsonPatch)), allowStale, stopOnFailure), cancellationToken).ConfigureAwait(false);
        return new StoreOperation(_backend, status);
    }

    /// <summary>
    /// Starts deleting every document <paramref name="query"/> matches on <paramref name="indexName"/>, in batches of one
    /// transaction each.
    /// </summary>
    /// <inheritdoc cref="PatchByQueryAsync(string, string?, string, bool, bool, CancellationToken)" path="/param"/>
    /// <exception cref="IndexStaleException">The index is stale and <paramref name="allowStale"/> is false; nothing was deleted.</exception>
    public async Task<StoreOperation> DeleteByQueryAsync(string indexName, string? query, bool allowStale = false,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(indexName);
        var status = await _backend.StartSetOperationAsync(
            new SetOperationRequest(indexName, query, null, allowStale, StopOnFailure: false), cancellationToken).ConfigureAwait(false);
        return new StoreOperation(_backend, status);
    }
}

/// <summary>A patch or delete by query started through <see cref="StoreOperations"/>.</summary>
public sealed class StoreOperation
{
    private readonly IStoreBackend _backend;

    internal StoreOperation(IStoreBackend backend, SetOperationStatus started)
    {
        _backend = backend;
        Started = started;
    }

    /// <summary>The operation's id on the database (<c>GET /operations/{id}</c> on a server).</summary>
    public long Id => Started.Id;

    /// <summary>The status it had when it started: what it matched.</summary>
    public SetOperationStatus Started { get; }

    /// <summary>Its status now; null when the database no longer knows it (it keeps the last 100 finished).</summary>
    public Task<SetOperationStatus?> GetStatusAsync(CancellationToken cancellationToken = default) =>
        _backend.GetOperationAsync(Id, cancellationToken);

    /// <summary>Waits for it to finish (however it ends) and returns its final status.</summary>
    /// <exception cref="KeyNotFoundException">The database no longer knows it.</exception>
    public Task<SetOperationStatus> WaitForCompletionAsync(CancellationToken cancellationToken = default) =>
        _backend.WaitForOperationAsync(Id, cancellationToken);

    /// <summary>Asks it to stop before its next batch; its status then (Cancelled once it has stopped).</summary>
    public Task<SetOperationStatus?> CancelAsync(CancellationToken cancellationToken = default) =>
        _backend.CancelOperationAsync(Id, cancellationToken);
}
