namespace RavenLite;

/// <summary>What a change on the changes feed is.</summary>
public enum ChangeKind
{
    /// <summary>A document was written (created, replaced or patched).</summary>
    Put,

    /// <summary>A document was deleted.</summary>
    Delete,

    /// <summary>An index has indexed every document up to <see cref="DatabaseChange.Etag"/>: queries on it are not stale.</summary>
    IndexCaughtUp,
}

/// <summary>
/// One change on the changes feed. Document changes come in etag order, each once; resuming from the etag of the last
/// one seen misses nothing. A document written several times before the feed reaches it appears once, at its newest
/// etag. Index events are not part of the etag order: they are live only.
/// </summary>
/// <param name="Kind">What happened.</param>
/// <param name="Etag">The write's etag; for <see cref="ChangeKind.IndexCaughtUp"/>, the etag the index reached.</param>
/// <param name="Key">The document's key (original casing); null for index events.</param>
/// <param name="EntityName">The document's <c>Raven-Entity-Name</c> for a put; null for deletes (tombstones keep only the key).</param>
/// <param name="IndexName">The index, for <see cref="ChangeKind.IndexCaughtUp"/>; else null.</param>
public sealed record DatabaseChange(ChangeKind Kind, long Etag, string? Key, string? EntityName, string? IndexName = null);
