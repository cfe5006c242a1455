namespace RavenLite.Storage.Documents;

/// <summary>A stored document exactly as kept: its metadata and data BSON, copied out of the engine.</summary>
public sealed record RawDocument(string Key, long Etag, DateTimeOffset LastModified,
    ReadOnlyMemory<byte> MetadataBson, ReadOnlyMemory<byte> DataBson);
