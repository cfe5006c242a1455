namespace RavenLite.Client.Backend;

/// <summary>
/// One command of a session's batch: a put (with data and metadata as UTF-8 JSON objects), a delete, or a patch
/// (<see cref="PatchJson"/>, a JSON Patch document applied on the server to the current version).
/// </summary>
/// <param name="Key">The document key.</param>
/// <param name="Data">The data to put; null for a delete.</param>
/// <param name="Metadata">The metadata to put; null for a delete.</param>
/// <param name="ExpectedEtag">Null: no check; 0: must not exist; else the current etag.</param>
public sealed record WriteCommand(string Key, byte[]? Data, byte[]? Metadata, long? ExpectedEtag)
{
    /// <summary>The JSON Patch document (RFC 6902, plus <c>increment</c>) as UTF-8 JSON, for a patch; else null.</summary>
    public byte[]? PatchJson { get; init; }

    /// <summary>
    /// For a bulk insert's put, the data in the backend's own form (from its <see cref="DocumentEncoder"/>) instead
    /// of <see cref="Data"/>; else null.
    /// </summary>
    public object? EncodedData { get; init; }

    /// <summary>Whether this is a delete (no data, no patch).</summary>
    public bool IsDelete => Data is null && EncodedData is null && PatchJson is null;

    /// <summary>Whether this is a patch.</summary>
    public bool IsPatch => PatchJson is not null;

    /// <summary>A put of <paramref name="data"/> and <paramref name="metadata"/> (UTF-8 JSON objects).</summary>
    public static WriteCommand Put(string key, byte[] data, byte[] metadata, long? expectedEtag) => new(key, data, metadata, expectedEtag);

    /// <summary>
    /// A patch of <paramref name="key"/> with <paramref name="patchJson"/> (a UTF-8 JSON Patch array); the backend's
    /// etag for it is null when the document does not exist.
    /// </summary>
    public static WriteCommand Patch(string key, byte[] patchJson, long? expectedEtag) =>
        new(key, null, null, expectedEtag) { PatchJson = patchJson };

    /// <summary>A delete of <paramref name="key"/>.</summary>
    public static WriteCommand Delete(string key, long? expectedEtag) => new(key, null, null, expectedEtag);
}
