namespace RavenLite.Client.Backend;

/// <summary>One command of a session's batch: a put (with data and metadata as UTF-8 JSON objects) or a delete.</summary>
/// <param name="Key">The document key.</param>
/// <param name="Data">The data to put; null for a delete.</param>
/// <param name="Metadata">The metadata to put; null for a delete.</param>
/// <param name="ExpectedEtag">Null: no check; 0: must not exist; else the current etag.</param>
public sealed record WriteCommand(string Key, byte[]? Data, byte[]? Metadata, long? ExpectedEtag)
{
    /// <summary>Whether this is a delete (no data).</summary>
    public bool IsDelete => Data is null;

    /// <summary>A put of <paramref name="data"/> and <paramref name="metadata"/> (UTF-8 JSON objects).</summary>
    public static WriteCommand Put(string key, byte[] data, byte[] metadata, long? expectedEtag) => new(key, data, metadata, expectedEtag);

    /// <summary>A delete of <paramref name="key"/>.</summary>
    public static WriteCommand Delete(string key, long? expectedEtag) => new(key, null, null, expectedEtag);
}
