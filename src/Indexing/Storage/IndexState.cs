namespace RavenLite.Indexing.Storage;

/// <summary>
/// An index's progress and counters as its meta table holds them. Written in the same write transaction as
/// the postings of each batch, so after a crash the index and its progress always agree.
/// </summary>
internal sealed record IndexState(
    long LastIndexedEtag,
    long DocumentCount,
    long NextDocId,
    DateTimeOffset? IndexedAt,
    long ErrorCount,
    IndexingError? LastError)
{
    public static IndexState Empty { get; } = new(0, 0, 1, null, 0, null);
}
