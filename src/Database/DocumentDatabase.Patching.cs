using RavenLite.Storage;
using RavenLite.Storage.Documents;

namespace RavenLite.Database;

public sealed partial class DocumentDatabase
{
    /// <summary>
    /// Applies <paramref name="patch"/> to the current version of <paramref name="key"/> inside one write transaction
    /// (read, apply, write, with no other write in between), keeping its metadata.
    /// </summary>
    /// <param name="key">The document.</param>
    /// <param name="patch">The operations; all apply or none does.</param>
    /// <param name="expectedEtag">Null: no check. Otherwise the document's current etag must match.</param>
    /// <param name="mode">Durable (default) or lazy commit.</param>
    /// <returns>The new version's etag; null when there is no such document (nothing was written).</returns>
    /// <exception cref="PatchException">A <c>test</c> failed or a path does not fit the document; nothing was written.</exception>
    /// <exception cref="ConcurrencyException">The etag did not match; nothing was written.</exception>
    public long? Patch(string key, DocumentPatch patch, long? expectedEtag = null, CommitMode mode = CommitMode.Durable)
    {
        ArgumentNullException.ThrowIfNull(patch);
        return Documents.Patch(key, patch, expectedEtag, mode);
    }
}
