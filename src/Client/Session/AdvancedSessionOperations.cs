using System.Linq.Expressions;
using System.Numerics;
using Newtonsoft.Json.Linq;

namespace RavenLite.Client.Session;

/// <summary>
/// What a session offers beyond load, store and delete: patches, sent with the next <see cref="DocumentSession.SaveChanges"/>
/// in the same atomic batch and applied on the server to the version current then (so concurrent patches of one
/// document never lose one another). Obtain it from <see cref="DocumentSession.Advanced"/>.
/// </summary>
public sealed class AdvancedSessionOperations
{
    private readonly DocumentSession _session;

    internal AdvancedSessionOperations(DocumentSession session) => _session = session;

    /// <summary>Sets <paramref name="path"/> of the tracked <paramref name="entity"/>'s document to <paramref name="value"/> on save.</summary>
    /// <exception cref="InvalidOperationException">The session does not track <paramref name="entity"/>.</exception>
    /// <exception cref="ArgumentException"><paramref name="path"/> is not a chain of members.</exception>
    public void Patch<T, TValue>(T entity, Expression<Func<T, TValue>> path, TValue value) where T : class =>
        Patch<T, TValue>(_session.RequireIdFor(entity), path, value);

    /// <summary>Sets <paramref name="path"/> of document <paramref name="id"/> to <paramref name="value"/> on save, loaded or not.</summary>
    /// <exception cref="ArgumentException">A bad id, or a path that is not a chain of members.</exception>
    public void Patch<T, TValue>(string id, Expression<Func<T, TValue>> path, TValue value) =>
        _session.AddPatch(id, new JObject
        {
            ["op"] = "add", // RFC 6902 add sets an existing member too, and creates a missing one
            ["path"] = _session.PointerFor(path),
            ["value"] = _session.ToToken(value),
        });

    /// <summary>Adds <paramref name="delta"/> to the number at <paramref name="path"/> of the tracked entity's document on save.</summary>
    /// <exception cref="InvalidOperationException">The session does not track <paramref name="entity"/>.</exception>
    public void Increment<T, TValue>(T entity, Expression<Func<T, TValue>> path, TValue delta) where T : class where TValue : INumber<TValue> =>
        Increment<T, TValue>(_session.RequireIdFor(entity), path, delta);

    /// <summary>
    /// Adds <paramref name="delta"/> to the number at <paramref name="path"/> of document <paramref name="id"/> on save (a missing
    /// member is set to it). Applied on the server: eight writers incrementing one counter lose none.
    /// </summary>
    public void Increment<T, TValue>(string id, Expression<Func<T, TValue>> path, TValue delta) where TValue : INumber<TValue> =>
        _session.AddPatch(id, new JObject
        {
            ["op"] = "increment",
            ["path"] = _session.PointerFor(path),
            ["value"] = _session.ToToken(delta),
        });
}
