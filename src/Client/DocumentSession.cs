using RavenLite.Client.Backend;
using RavenLite.Client.Session;

namespace RavenLite.Client;

/// <summary>
/// A unit of work: load and store entities, change them, then <see cref="SaveChanges"/> writes every change in one
/// atomic batch. Loading an id twice gives the same instance (an identity map). Not thread-safe: one session per
/// unit of work, on one thread at a time. Obtain one from <see cref="RavenStore.OpenSession"/>.
/// </summary>
public sealed partial class DocumentSession : IDisposable
{
    private readonly RavenStore _store;
    private Dictionary<string, SessionEntry> _byKey = new(DocumentKeyComparer.Instance);
    private Dictionary<object, SessionEntry> _byEntity = new(ReferenceEqualityComparer.Instance);

    // Entities tracked from loads and queries join _byEntity only when an entity-to-id lookup first needs it: a
    // session that only reads never hashes its entities (a new object's identity hash is a slow runtime call).
    private List<SessionEntry> _notInByEntity = [];
    private readonly Dictionary<string, long?> _deletes = new(DocumentKeyComparer.Instance);
    private bool _disposed;

    internal DocumentSession(RavenStore store)
    {
        _store = store;
        MaxNumberOfRequests = store.Conventions.MaxNumberOfRequestsPerSession;
        UseOptimisticConcurrency = store.Conventions.UseOptimisticConcurrency;
    }

    /// <summary>
    /// Whether <see cref="SaveChanges"/> checks etags: a changed or deleted document must still have the etag it was
    /// loaded with, and a new one must not exist yet; otherwise a <see cref="ConcurrencyException"/> and
    /// nothing of the batch is written. Default from <see cref="StoreConventions.UseOptimisticConcurrency"/>.
    /// </summary>
    public bool UseOptimisticConcurrency { get; set; }

    /// <summary>How many round trips this session may make; one more throws <see cref="InvalidOperationException"/>.</summary>
    public int MaxNumberOfRequests { get; set; }

    /// <summary>How many round trips this session has made (loads that missed the identity map, query pages, saves).</summary>
    public int NumberOfRequests { get; private set; }

    /// <summary>
    /// Tracks a new entity, to be written by the next <see cref="SaveChanges"/>. Its id is its identity property
    /// (<c>Id</c>) or, when that is empty, a generated one (<c>carts/1</c>), which is set on the entity. Storing an
    /// entity the session already tracks does nothing. An entity of a read-only type (every field <c>readonly</c>: records,
    /// <c>init</c> members, read-only collections) is shared by the sessions as the cache holds it rather than copied, so
    /// it is changed by storing a changed copy (<c>session.Store(cart with { Total = 5 })</c>): that replaces the one the
    /// session tracks under the same id, keeping its etag for the concurrency check.
    /// </summary>
    /// <exception cref="ArgumentException">A bad id, or an entity that cannot be serialized to a JSON object.</exception>
    /// <exception cref="InvalidOperationException">The session already has another object with this id (and it is not a read-only one of the same type).</exception>
    public void Store(object entity) => Store(entity, id: null);

    /// <summary>As <see cref="Store(object)"/>, under the id given (also set on the entity's identity property).</summary>
    public void Store(object entity, string? id)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ThrowIfDisposed();
        if (ByEntity.ContainsKey(entity))
            return;
        var type = entity.GetType();
        var identity = _store.IdentityOf(type);
        id ??= identity?.GetValue(entity) as string;
        var generated = string.IsNullOrEmpty(id);
        if (generated)
            id = _store.Ids.Next(_store.Conventions.FindIdPrefix(_store.Conventions.FindEntityName(type)));
        DocumentKey.Validate(id, nameof(id));
        // A read-only entity cannot be changed in place, so storing a changed copy replaces the one tracked under its id.
        var replaces = _byKey.TryGetValue(id!, out var existing);
        if (replaces && !(existing!.Entity.GetType() == type && _store.Entities.CopierFor(type) is { SharesInstances: true }))
            throw new InvalidOperationException(
                $"The session already tracks another object with id '{existing.Key}' ({existing.Entity.GetType()}); load it and change it instead.");
        _store.AssignId(entity, id!);
        _store.Serializer.Serialize(entity, id!); // fails early, before anything is tracked, if it cannot be stored
        // A delete of this id in the same session stays in the batch, before the put: an atomic replace.
        var entry = replaces
            ? new SessionEntry(existing!.Key, entity) { Loaded = existing.Loaded, Original = existing.Original, GeneratedId = existing.GeneratedId }
            : new SessionEntry(id!, entity) { GeneratedId = generated };
        if (replaces)
            ByEntity.Remove(existing!.Entity);
        _byKey[entry.Key] = entry;
        _byEntity.Add(entity, entry);
    }

    /// <summary>Marks a tracked entity for deletion by the next <see cref="SaveChanges"/>.</summary>
    /// <exception cref="InvalidOperationException">The session does not track this object.</exception>
    public void Delete<T>(T entity) where T : class
    {
        ArgumentNullException.ThrowIfNull(entity);
        ThrowIfDisposed();
        if (!ByEntity.TryGetValue(entity, out var entry))
            throw new InvalidOperationException($"The session does not track this {entity.GetType()}; load it first, or delete it by id.");
        Forget(entry);
    }

    /// <summary>Marks the document <paramref name="id"/> for deletion by the next <see cref="SaveChanges"/>, loaded or not.</summary>
    /// <exception cref="ArgumentException">A bad id.</exception>
    public void Delete(string id)
    {
        DocumentKey.Validate(id, nameof(id));
        ThrowIfDisposed();
        if (_byKey.TryGetValue(id, out var entry))
            Forget(entry);
        else
            _deletes[id] = null;
    }

    private void Forget(SessionEntry entry)
    {
        _byKey.Remove(entry.Key);
        ByEntity.Remove(entry.Entity);
        if (!entry.IsNew)
            _deletes[entry.Key] = entry.Etag;
    }

    /// <summary>The id of a tracked entity; null when the session does not track it.</summary>
    public string? GetIdFor(object entity) => ByEntity.TryGetValue(entity, out var entry) ? entry.Key : null;

    /// <summary>The etag a tracked entity was loaded or last saved with; null when new or not tracked.</summary>
    public long? GetEtagFor(object entity) => ByEntity.TryGetValue(entity, out var entry) ? entry.Etag : null;

    /// <summary>Every tracked entity to its entry, the ones tracked since the last lookup added first.</summary>
    private Dictionary<object, SessionEntry> ByEntity
    {
        get
        {
            if (_notInByEntity.Count > 0)
            {
                _byEntity.EnsureCapacity(_byEntity.Count + _notInByEntity.Count);
                foreach (var entry in _notInByEntity)
                    _byEntity.Add(entry.Entity, entry);
                _notInByEntity.Clear();
            }
            return _byEntity;
        }
    }

    /// <summary>Counts one round trip, refusing it past <see cref="MaxNumberOfRequests"/>.</summary>
    internal void CountRequest()
    {
        ThrowIfDisposed();
        if (NumberOfRequests >= MaxNumberOfRequests)
            throw new InvalidOperationException(
                $"The session has made its maximum of {MaxNumberOfRequests} requests. Load several ids in one call, " +
                "query instead of loading one by one, or use a new session per unit of work (MaxNumberOfRequests raises the limit).");
        NumberOfRequests++;
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);

    /// <summary>Ends the session; unsaved changes are dropped. Safe to call more than once.</summary>
    public void Dispose()
    {
        _disposed = true;
        // Let go of what was tracked by dropping the maps rather than clearing them: Clear zeroes every slot of a
        // page-sized map (about 20 us of a warm 1,024-result query, measured).
        _byKey = new(DocumentKeyComparer.Instance);
        _byEntity = new(ReferenceEqualityComparer.Instance);
        _notInByEntity = [];
        _deletes.Clear();
        _patches.Clear();
    }

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
