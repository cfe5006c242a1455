using RavenLite.Client.Backend;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>
    /// Whether a remote session revalidates what the store already read instead of reading it again: loads and query
    /// pages are sent with <c>If-None-Match</c> and the ETag of the store's last answer to the same request, and a
    /// <c>304 Not Modified</c> is served from that answer and the entity cache. Every request still goes to the
    /// server, so nothing served is stale. Default true; an embedded session has no HTTP and ignores it.
    /// </summary>
    public bool UseHttpCache { get; set; } = true;

    private IStoreBackend Backend => UseHttpCache ? _store.Backend : _store.UncachedBackend;

    /// <summary>Grows the identity map once for a page about to be tracked, instead of doubling it as it fills.</summary>
    internal void ReserveTracking(int count)
    {
        _byKey.EnsureCapacity(_byKey.Count + count);
        _notInByEntity.EnsureCapacity(_notInByEntity.Count + count);
    }

    /// <summary>Whether the compiled comparer finds a loaded entity equal to the original it was copied from (no need to serialize it).</summary>
    private bool UnchangedSinceLoad(Session.SessionEntry entry) =>
        entry.Original is { } original && _store.Entities.CopierFor(original.GetType()) is { } copier && copier.Same(entry.Entity, original);
}
