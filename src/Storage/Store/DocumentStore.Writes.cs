using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Documents;

internal sealed partial class DocumentStore
{
    /// <summary>Stores a document, replacing any version under the same key (compared case-insensitively).</summary>
    /// <param name="key">The key; its casing is kept. See <see cref="DocumentKey"/> for the rules.</param>
    /// <param name="data">The document, a JSON object.</param>
    /// <param name="metadata">Metadata such as <c>Raven-Entity-Name</c>; empty when null.</param>
    /// <param name="expectedEtag">
    /// Null: no check. 0: the document must not exist. Otherwise: the document's current etag must match.
    /// </param>
    /// <param name="mode">How the commit reaches the disk: durable (the default), pipelined or lazy (<see cref="CommitMode"/>).</param>
    /// <exception cref="ConcurrencyException">The etag did not match; nothing was written.</exception>
    /// <exception cref="ArgumentException">A bad key or a document over 16 MiB; nothing was written.</exception>
    public PutResult Put(string key, DocumentContent data, DocumentContent? metadata = null, long? expectedEtag = null,
        CommitMode mode = CommitMode.Durable)
    {
        var result = Apply([BatchCommand.Put(key, data, metadata, expectedEtag)], single: true, mode)[0];
        return new PutResult(result.Key, result.Etag!.Value);
    }

    /// <inheritdoc cref="Put(string, DocumentContent, DocumentContent?, long?, CommitMode)"/>
    public PutResult Put(string key, JObject data, JObject? metadata = null, long? expectedEtag = null,
        CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(data);
        return Put(key, DocumentContent.FromJObject(data),
            metadata is null ? null : DocumentContent.FromJObject(metadata), expectedEtag, mode);
    }

    /// <summary>Deletes a document, leaving a tombstone for the indexes.</summary>
    /// <param name="key">The key.</param>
    /// <param name="expectedEtag">Null: no check. Otherwise the document must exist with this etag.</param>
    /// <param name="mode">How the commit reaches the disk: durable (the default), pipelined or lazy (<see cref="CommitMode"/>).</param>
    /// <returns>True when a document was deleted; false when there was none.</returns>
    /// <exception cref="ConcurrencyException">The etag did not match; nothing was written.</exception>
    public bool Delete(string key, long? expectedEtag = null, CommitMode mode = CommitMode.Durable) =>
        Apply([BatchCommand.Delete(key, expectedEtag)], single: true, mode)[0].Deleted;

    /// <summary>
    /// Applies <paramref name="patch"/> to the current version of <paramref name="key"/> in the write transaction.
    /// </summary>
    /// <returns>The new etag; null when the document does not exist (nothing was written).</returns>
    /// <exception cref="ConcurrencyException">The etag did not match; nothing was written.</exception>
    /// <exception cref="PatchException">The patch refused the document; nothing was written.</exception>
    public long? Patch(string key, IDocumentPatch patch, long? expectedEtag = null, CommitMode mode = CommitMode.Durable) =>
        Apply([BatchCommand.Patch(key, patch, expectedEtag)], single: true, mode)[0].Etag;

    /// <summary>
    /// Applies puts, deletes and patches in one transaction: all of them, or (when one fails) none of them.
    /// Errors name the failing command's index.
    /// </summary>
    public IReadOnlyList<BatchResult> Batch(IReadOnlyList<BatchCommand> commands, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(commands);
        return Apply(commands, single: false, mode);
    }

    private BatchResult[] Apply(IReadOnlyList<BatchCommand> commands, bool single, CommitMode mode)
    {
        ThrowIfDisposed();
        return Commit(PreparedCommand.PrepareAll(commands, single), single, mode);
    }

    /// <summary>After a commit, frees the versions the write replaced or deleted (best effort).</summary>
    private void ForgetReplaced(IReadOnlyList<ReplacedVersion> replaced)
    {
        if (_cache is null)
            return;
        foreach (var version in replaced)
            _cache.Remove(version.StorageKey, version.Etag);
    }
}
