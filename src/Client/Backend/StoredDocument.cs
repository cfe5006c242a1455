namespace RavenLite.Client.Backend;

/// <summary>
/// A document as a backend hands it to a session: its key, etag, the data as UTF-8 JSON (no <c>@metadata</c>)
/// and the stored metadata members as a UTF-8 JSON object (without the computed <c>@id</c>, <c>@etag</c>,
/// <c>Last-Modified</c>).
/// </summary>
public sealed record StoredDocument(string Key, long Etag, ReadOnlyMemory<byte> DataJson, ReadOnlyMemory<byte> MetadataJson);
