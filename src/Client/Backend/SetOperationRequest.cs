namespace RavenLite.Client.Backend;

/// <summary>A patch or delete by query, as a backend starts it.</summary>
/// <param name="IndexName">The index to query.</param>
/// <param name="Query">The query in Lucene syntax; null: every document of the index.</param>
/// <param name="PatchJson">The JSON Patch document (RFC 6902, plus <c>increment</c>) as UTF-8 JSON; null for a delete.</param>
/// <param name="AllowStale">Whether a stale index may answer (otherwise <see cref="IndexStaleException"/>).</param>
/// <param name="StopOnFailure">Whether the first document the patch refuses stops the operation (otherwise it is skipped and reported).</param>
public sealed record SetOperationRequest(string IndexName, string? Query, byte[]? PatchJson, bool AllowStale, bool StopOnFailure);
