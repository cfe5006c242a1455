using RavenLite.Storage.Caching;

namespace RavenLite.Database;

/// <summary>A database's statistics: maintained document counts and the document cache's counters.</summary>
/// <param name="Documents">How many documents there are.</param>
/// <param name="LastEtag">The last etag given out (0 for a new database).</param>
/// <param name="ByEntityName">Documents per <c>Raven-Entity-Name</c>; documents without one are not listed.</param>
/// <param name="Cache">The document cache: hits, misses, evictions, entries, bytes and the limit.</param>
public sealed record DatabaseStatistics(long Documents, long LastEtag, IReadOnlyDictionary<string, long> ByEntityName,
    CacheStatistics Cache);
