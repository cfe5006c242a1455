namespace RavenLite.Storage.Documents;

/// <summary>A deleted document's key and the etag of its deletion, kept until the indexes have seen it.</summary>
public readonly record struct Tombstone(string Key, long Etag);
