using System.Linq.Expressions;
using RavenLite.Client.Backend;
using RavenLite.Client.Session;

namespace RavenLite.Client;

public sealed partial class DocumentSession
{
    /// <summary>Documents an include brought in, by key, until a load asks for them (then they are tracked).</summary>
    private readonly Dictionary<string, StoredDocument> _included = new(StringComparer.OrdinalIgnoreCase);

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
