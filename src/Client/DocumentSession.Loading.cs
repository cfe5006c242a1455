using System.Linq.Expressions;
using System.Runtime.InteropServices;
using RavenLite.Client.Backend;
using RavenLite.Client.Session;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>
    /// The entity with this id, or null when there is no such document (or it was deleted in this session). An id
    /// the session already tracks costs no round trip and gives the same instance.
    /// </summary>
    /// <exception cref="ArgumentException">A bad id (null, empty, over 255 bytes of UTF-8, control characters).</exception>
    /// <exception cref="InvalidCastException">The session tracks this id as an object that is not a <typeparamref name="T"/>.</exception>
    public T? Load<T>(string id) where T : class
    {
        if (TryLoadFromSession<T>(id, out var known))
            return known;
        CountRequest();
        return Backend.Load([id])[0] is { } document ? Track<T>(document) : null;
    }

    /// <inheritdoc cref="Load{T}(string)"/>
    /// <param name="id">The id.</param>
    /// <param name="cancellationToken">Cancels the wait for the server.</param>
    public async Task<T?> LoadAsync<T>(string id, CancellationToken cancellationToken = default) where T : class
    {
        if (TryLoadFromSession<T>(id, out var known))
            return known;
        CountRequest();
        var documents = await Backend.LoadAsync([id], cancellationToken).ConfigureAwait(false);
        return documents[0] is { } document ? Track<T>(document) : null;
    }

    /// <summary>
    /// The entities with these ids, in order (null where there is none), in one round trip for every id the session
    /// does not already track (none when it tracks them all).
    /// </summary>
    /// <exception cref="ArgumentException">A bad id; nothing is loaded.</exception>
    public T?[] Load<T>(IEnumerable<string> ids) where T : class
    {
        var plan = PlanLoad<T>(ids);
        if (plan.Missing.Count > 0)
        {
            CountRequest();
            plan.Fill(this, Backend.Load(plan.Missing));
        }
        return plan.Results;
    }

    /// <inheritdoc cref="Load{T}(IEnumerable{string})"/>
    /// <param name="ids">The ids.</param>
    /// <param name="cancellationToken">Cancels the wait for the server.</param>
    public async Task<T?[]> LoadAsync<T>(IEnumerable<string> ids, CancellationToken cancellationToken = default) where T : class
    {
        var plan = PlanLoad<T>(ids);
        if (plan.Missing.Count > 0)
        {
            CountRequest();
            plan.Fill(this, await Backend.LoadAsync(plan.Missing, cancellationToken).ConfigureAwait(false));
        }
        return plan.Results;
    }

    private bool TryLoadFromSession<T>(string id, out T? known) where T : class
    {
        DocumentKey.Validate(id, nameof(id));
        ThrowIfDisposed();
        return TryFromSession(id, out known);
    }

    /// <summary>Validates every id, answers what the session can, and lists the ids it must fetch.</summary>
    private LoadPlan<T> PlanLoad<T>(IEnumerable<string> ids) where T : class
    {
        ArgumentNullException.ThrowIfNull(ids);
        var list = ids as IReadOnlyList<string> ?? [.. ids];
        for (var i = 0; i < list.Count; i++)
            DocumentKey.Validate(list[i], $"ids[{i}]");
        ThrowIfDisposed();
        var plan = new LoadPlan<T>(new T?[list.Count]);
        for (var i = 0; i < list.Count; i++)
        {
            if (TryFromSession<T>(list[i], out var known))
            {
                plan.Results[i] = known;
            }
            else
            {
                plan.Missing.Add(list[i]);
                plan.Positions.Add(i);
            }
        }
        return plan;
    }

    private sealed record LoadPlan<T>(T?[] Results) where T : class
    {
        public List<string> Missing { get; } = [];

        public List<int> Positions { get; } = [];

        public void Fill(DocumentSession session, IReadOnlyList<StoredDocument?> documents)
        {
            for (var i = 0; i < documents.Count; i++)
                Results[Positions[i]] = documents[i] is { } document ? session.Track<T>(document) : null;
        }
    }

    /// <summary>
    /// True when the session can answer for <paramref name="id"/> itself: a tracked entity, one deleted here, or one an
    /// include brought in (tracked from then on).
    /// </summary>
    private bool TryFromSession<T>(string id, out T? entity) where T : class
    {
        entity = null;
        if (_byKey.TryGetValue(id, out var entry))
        {
            entity = entry.Entity as T ?? throw new InvalidCastException(
                $"The session tracks '{id}' as a {entry.Entity.GetType()}, which is not a {typeof(T)}.");
            return true;
        }
        if (_deletes.ContainsKey(id))
            return true;
        if (!_included.Remove(id, out var included))
            return false;
        entity = Track<T>(included);
        return true;
    }

    /// <summary>
    /// The session's entity for a document the backend returned: the tracked instance when there is one (a query
    /// may return what is already loaded), else a new one, deserialized from the document's JSON and tracked.
    /// </summary>
    internal T Track<T>(StoredDocument document) where T : class
    {
        // One hash of the key for the lookup and the add.
        ref var slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_byKey, document.Key, out var known);
        if (known)
            return slot!.Entity as T ?? throw new InvalidCastException(
                $"The session tracks '{document.Key}' as a {slot.Entity.GetType()}, which is not a {typeof(T)}.");
        SessionEntry entry;
        try
        {
            var entity = (T)_store.Entities.Materialize(document, typeof(T), admit: true, out var original);
            entry = new SessionEntry(document.Key, entity) { Loaded = document, Original = original };
        }
        catch
        {
            _byKey.Remove(document.Key);
            throw;
        }
        slot = entry;
        _notInByEntity.Add(entry);
        return (T)entry.Entity;
    }

    /// <summary>Documents an include brought in, by key, until a load asks for them (then they are tracked).</summary>
    private readonly Dictionary<string, StoredDocument> _included = new(DocumentKeyComparer.Instance);

    /// <summary>
    /// As <see cref="Load{T}(string)"/>, and in the same round trip the documents it refers to through
    /// <paramref name="include"/> (a member holding an id, or a collection of ids: <c>x =&gt; x.CustomerId</c>,
    /// <c>x =&gt; x.ProductIds</c>): a following <c>Load</c> of one of them makes no request.
    /// </summary>
    /// <exception cref="ArgumentException">A bad id, or an include that is not a chain of members.</exception>
    public T? Load<T>(string id, Expression<Func<T, object?>> include) where T : class
    {
        var path = IncludePath.ToPath(include, _store.Serializer);
        if (TryLoadFromSession<T>(id, out var known))
            return known;
        CountRequest();
        var loaded = _store.Backend.Load([id], [path]);
        RememberIncluded(loaded.Includes);
        return loaded.Results[0] is { } found ? Track<T>(found) : null;
    }

    /// <summary>Keeps documents an include brought in (those the session does not track yet) for a later load.</summary>
    internal void RememberIncluded(IReadOnlyList<StoredDocument> includes)
    {
        foreach (var document in includes)
        {
            if (!_byKey.ContainsKey(document.Key))
                _included[document.Key] = document;
        }
    }
}
