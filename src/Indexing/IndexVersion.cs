namespace RavenLite.Indexing;

/// <summary>
/// What a query's answer depends on besides the query: which build of the index (<paramref name="Generation"/>, new
/// when it is defined, redefined or reset), how far it has indexed and when it last committed, and the database's last
/// etag (every put and delete moves it). Two queries with the same parameters and the same version get the same answer;
/// every <see cref="QueryResult"/> carries the version that answered it.
/// </summary>
/// <param name="Generation">The build of the index.</param>
/// <param name="IndexEtag">The etag up to which the index has indexed (<see cref="QueryResult.IndexEtag"/>).</param>
/// <param name="IndexTimestamp">When it last committed a batch (<see cref="QueryResult.IndexTimestamp"/>).</param>
/// <param name="DatabaseEtag">The database's last etag (<see cref="QueryResult.DatabaseEtag"/>).</param>
public readonly record struct IndexVersion(Guid Generation, long IndexEtag, DateTimeOffset? IndexTimestamp, long DatabaseEtag)
{
    /// <summary>Whether the index has not caught up with every write: a query now would be stale.</summary>
    public bool IsStale => IndexEtag < DatabaseEtag;
}
