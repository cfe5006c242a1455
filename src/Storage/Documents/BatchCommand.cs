using Newtonsoft.Json.Linq;

namespace RavenLite.Storage.Documents;

/// <summary>One operation of an atomic batch: <see cref="Put(string, DocumentContent, DocumentContent?, long?)"/>, <see cref="Delete"/> or <see cref="Patch"/>.</summary>
public abstract record BatchCommand(string Key, long? ExpectedEtag)
{
    /// <summary>Put a document; <paramref name="expectedEtag"/> as for <see cref="DocumentStore.Put(string, DocumentContent, DocumentContent?, long?, CommitMode)"/>.</summary>
    public static BatchCommand Put(string key, DocumentContent data, DocumentContent? metadata = null, long? expectedEtag = null) =>
        new PutCommand(key, data, metadata ?? DocumentContent.Empty, expectedEtag);

    /// <summary>Put a document given as <see cref="JObject"/>s.</summary>
    public static BatchCommand Put(string key, JObject data, JObject? metadata = null, long? expectedEtag = null) =>
        Put(key, DocumentContent.FromJObject(data), metadata is null ? null : DocumentContent.FromJObject(metadata), expectedEtag);

    /// <summary>Delete a document; <paramref name="expectedEtag"/> as for <see cref="DocumentStore.Delete"/>.</summary>
    public static BatchCommand Delete(string key, long? expectedEtag = null) => new DeleteCommand(key, expectedEtag);

    /// <summary>
    /// Patch a document: <paramref name="patch"/> is applied to the version current when the write transaction runs,
    /// keeping its metadata. <paramref name="expectedEtag"/>: null, no check; otherwise the current etag must match.
    /// A patch of a missing document writes nothing and its result has a null etag.
    /// </summary>
    public static BatchCommand Patch(string key, IDocumentPatch patch, long? expectedEtag = null) => new PatchCommand(key, patch, expectedEtag);
}

/// <summary>A put in a batch.</summary>
public sealed record PutCommand(string Key, DocumentContent Data, DocumentContent Metadata, long? ExpectedEtag)
    : BatchCommand(Key, ExpectedEtag);

/// <summary>A delete in a batch.</summary>
public sealed record DeleteCommand(string Key, long? ExpectedEtag) : BatchCommand(Key, ExpectedEtag);

/// <summary>A patch in a batch.</summary>
public sealed record PatchCommand(string Key, IDocumentPatch Changes, long? ExpectedEtag) : BatchCommand(Key, ExpectedEtag);

/// <summary>The outcome of one batch command.</summary>
/// <param name="Key">The key.</param>
/// <param name="Etag">The etag written; for a delete or a patch of a missing document, null.</param>
/// <param name="Deleted">True for a delete that removed a document.</param>
public readonly record struct BatchResult(string Key, long? Etag, bool Deleted);
