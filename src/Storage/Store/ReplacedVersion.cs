namespace RavenLite.Storage.Documents;

/// <summary>A document version a write replaced or deleted: its folded storage key and etag.</summary>
internal readonly record struct ReplacedVersion(byte[] StorageKey, long Etag);
