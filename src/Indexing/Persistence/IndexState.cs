namespace RavenLite.Indexing.Persistence;

/// <summary>
/// An index's progress and counters as of its last Lucene commit: the etag, time and error counters travel in the
/// commit's user data (<see cref="CommitData"/>), so after a crash the index and its progress always agree.
/// </summary>
internal sealed record IndexState(
    long LastIndexedEtag,
    long DocumentCount,
    DateTimeOffset? IndexedAt,
    long ErrorCount,
    IndexingError? LastError)
{
    public static IndexState Empty { get; } = new(0, 0, null, 0, null);
}
