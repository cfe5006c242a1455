namespace RavenLite.Indexing;

/// <summary>One index's statistics, maintained as it indexes (never computed by scanning).</summary>
/// <param name="Name">The index's name.</param>
/// <param name="IsBuiltIn">Whether it is a built-in index (which users cannot change or delete).</param>
/// <param name="DocumentCount">How many documents the index holds.</param>
/// <param name="LastIndexedEtag">The etag up to which every document and deletion has been indexed.</param>
/// <param name="DatabaseLastEtag">The database's last etag when the statistics were read.</param>
/// <param name="IsStale">Whether the index is behind the database (<see cref="LastIndexedEtag"/> &lt; <see cref="DatabaseLastEtag"/>).</param>
/// <param name="LastIndexedAt">When the index last committed a batch; null before its first.</param>
/// <param name="ErrorCount">How many indexing errors it has recorded since it was built.</param>
/// <param name="LastError">The most recent indexing error; null when there has been none.</param>
/// <param name="DocumentsIndexedSinceOpen">
/// Documents this index indexed since the database was opened (or since the index was last reset or redefined):
/// 0 after a restart of an up-to-date index.
/// </param>
public sealed record IndexStatistics(
    string Name,
    bool IsBuiltIn,
    long DocumentCount,
    long LastIndexedEtag,
    long DatabaseLastEtag,
    bool IsStale,
    DateTimeOffset? LastIndexedAt,
    long ErrorCount,
    IndexingError? LastError,
    long DocumentsIndexedSinceOpen)
{
    /// <summary>
    /// Since when the index has been unable to make progress (every attempt to index its next batch fails, as on a full
    /// disk; <see cref="LastError"/> says why); null while it is indexing normally. Readiness checks report it.
    /// </summary>
    public DateTimeOffset? FailingSince { get; init; }
}
