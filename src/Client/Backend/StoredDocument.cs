using RavenLite.Client.Caching;

namespace RavenLite.Client.Backend;

/// <summary>
/// A document as a backend hands it to a session: its key, etag, the data as UTF-8 JSON (no <c>@metadata</c>)
/// and the stored metadata members as a UTF-8 JSON object (without the computed <c>@id</c>, <c>@etag</c>,
/// <c>Last-Modified</c>).
/// </summary>
/// <remarks>
/// A backend may hand out the same instance for every read of a version (the embedded one keeps it with the cached
/// document); the entity a store materializes from it is then kept on it, so a warm read finds it without a lookup.
/// Equality is by the four members.
/// </remarks>
public sealed record StoredDocument(string Key, long Etag, ReadOnlyMemory<byte> DataJson, ReadOnlyMemory<byte> MetadataJson)
{
    /// <summary>The cached original a store's entity materializer made of this version; not copied by <c>with</c>.</summary>
    internal MaterializedEntity? Materialized { get; set; }

    private StoredDocument(StoredDocument original)
    {
        Key = original.Key;
        Etag = original.Etag;
        DataJson = original.DataJson;
        MetadataJson = original.MetadataJson;
    }

    /// <inheritdoc />
    public bool Equals(StoredDocument? other) =>
        other is not null && Etag == other.Etag && string.Equals(Key, other.Key, StringComparison.Ordinal)
        && DataJson.Equals(other.DataJson) && MetadataJson.Equals(other.MetadataJson);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(Key, Etag, DataJson, MetadataJson);
}
