namespace RavenLite.Storage.Documents;

/// <summary>What a put or delete did: the key and the etag it was given.</summary>
/// <param name="Key">The document key, as written.</param>
/// <param name="Etag">The etag of the write (for a delete, the tombstone's etag).</param>
public readonly record struct PutResult(string Key, long Etag);
