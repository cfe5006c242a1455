using RavenLite.Client.Backend;

namespace RavenLite.Client.Session;

/// <summary>What a session knows about one tracked entity.</summary>
internal sealed class SessionEntry(string key, object entity)
{
    public string Key { get; } = key;

    public object Entity { get; } = entity;

    /// <summary>
    /// The document as loaded or last saved (its etag, data JSON and metadata); null for an entity stored but not yet
    /// saved. Kept as the one object the backend handed over rather than its parts: a query tracks a whole page of these.
    /// </summary>
    public StoredDocument? Loaded { get; set; }

    /// <summary>The etag loaded or last saved; null for an entity stored but not yet saved.</summary>
    public long? Etag => Loaded?.Etag;

    /// <summary>The data JSON as loaded or last saved (what changes are detected against); empty when new.</summary>
    public ReadOnlyMemory<byte> Json => Loaded?.DataJson ?? default;

    /// <summary>
    /// The cached original the entity was copied from, compared with by the type's compiled comparer; null when the
    /// type falls back to deserialization, or once saved (then <see cref="Json"/> is the baseline).
    /// </summary>
    public object? Original { get; set; }

    /// <summary>The stored metadata as loaded or last saved; empty when new.</summary>
    public ReadOnlyMemory<byte> Metadata => Loaded?.MetadataJson ?? default;

    /// <summary>Whether the id was generated (so the document must not exist yet).</summary>
    public bool GeneratedId { get; init; }

    public bool IsNew => Loaded is null;
}
