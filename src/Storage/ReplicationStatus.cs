namespace RavenLite.Storage;

/// <summary>Where a shared engine's database stands in its server's replication: a primary, or a standby and how far behind.</summary>
/// <param name="IsStandby">True when the server is a read-only standby replaying its primary's changes.</param>
/// <param name="Lag">
/// On a standby: zero when everything received from the primary is replayed; otherwise how long ago the primary
/// committed the last change replayed here (the age of what the standby serves). Null on a primary.
/// </param>
/// <param name="LastReplayedCommitAt">On a standby: when the primary committed the last change replayed here; null on a primary or before any.</param>
public sealed record ReplicationStatus(bool IsStandby, TimeSpan? Lag, DateTimeOffset? LastReplayedCommitAt);
