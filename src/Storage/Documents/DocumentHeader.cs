namespace RavenLite.Storage.Documents;

/// <summary>
/// What a stored document version says of itself outside its JSON: read from the stored record's header without
/// decoding the metadata or data BSON.
/// </summary>
/// <param name="Key">The key with its original casing.</param>
/// <param name="Etag">The etag of the write that produced this version.</param>
/// <param name="LastModified">When this version was written (UTC).</param>
/// <param name="EntityName">The metadata's <c>Raven-Entity-Name</c>, when it has a string one.</param>
public readonly record struct DocumentHeader(string Key, long Etag, DateTimeOffset LastModified, string? EntityName);
