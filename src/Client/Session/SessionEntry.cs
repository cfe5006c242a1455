namespace RavenLite.Client.Session;

/// <summary>What a session knows about one tracked entity.</summary>
internal sealed class SessionEntry(string key, object entity)
{
    public string Key { get; } = key;

    public object Entity { get; } = entity;

    /// <summary>The etag loaded or last saved; null for an entity stored but not yet saved.</summary>
    public long? Etag { get; set; }

    /// <summary>The data JSON as loaded or last saved (what changes are detected against); empty when new.</summary>
    public ReadOnlyMemory<byte> Json { get; set; }

    /// <summary>
    /// The cached original the entity was copied from, compared with by the type's compiled comparer; null when the
    /// type falls back to deserialization, or once saved (then <see cref="Json"/> is the baseline).
    /// </summary>
    public object? Original { get; set; }

    /// <summary>The stored metadata as loaded or last saved; empty when new.</summary>
    public ReadOnlyMemory<byte> Metadata { get; set; }

    /// <summary>Whether the id was generated (so the document must not exist yet).</summary>
    public bool GeneratedId { get; init; }

    public bool IsNew => Etag is null;
}
