namespace RavenLite.Client;

/// <summary>
/// Bounds of a store's entity cache (materialized entities shared by its sessions, handed out as copies) and, for a
/// remote store, of the responses it keeps to revalidate with <c>If-None-Match</c>. Zero turns a cache off.
/// </summary>
public sealed class EntityCacheOptions
{
    /// <summary>The most entities kept (default 16,384). 0 turns the entity cache off: every read deserializes.</summary>
    public int MaxEntries { get; init; } = 16_384;

    /// <summary>
    /// The most estimated bytes of entities kept (default 64 MiB). An entity is estimated at twice its JSON's UTF-8
    /// length (strings hold two bytes a character) plus 64. 0 turns the entity cache off.
    /// </summary>
    public long MaxBytes { get; init; } = 64L << 20;

    /// <summary>
    /// A remote store's bound on the response bodies it keeps to revalidate (default 64 MiB, counted as the bytes the
    /// server sent). 0: every read is a full read. Ignored by an embedded store.
    /// </summary>
    public long MaxResponseBytes { get; init; } = 64L << 20;

    internal bool Enabled => MaxEntries > 0 && MaxBytes > 0;

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(MaxEntries);
        ArgumentOutOfRangeException.ThrowIfNegative(MaxBytes);
        ArgumentOutOfRangeException.ThrowIfNegative(MaxResponseBytes);
    }
}
