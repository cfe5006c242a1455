namespace RavenLite.Storage.Documents;

/// <summary>Maintained counters of a store: read, never computed by scanning.</summary>
/// <param name="Documents">How many documents there are.</param>
/// <param name="LastEtag">The last etag given out (0 for a new store).</param>
/// <param name="ByEntityName">Documents per <c>Raven-Entity-Name</c>; documents without one are not listed.</param>
internal sealed record DocumentCounts(long Documents, long LastEtag, IReadOnlyDictionary<string, long> ByEntityName);
