using Newtonsoft.Json;

namespace RavenLite.Client;

/// <summary>
/// How a <see cref="RavenStore"/> maps C# objects to documents: serializer settings, entity names, id prefixes and
/// the identity property, and the session defaults. Set once, when the store is created.
/// </summary>
public sealed class StoreConventions
{
    /// <summary>
    /// The Newtonsoft.Json settings entities are serialized and deserialized with. Default: Newtonsoft's defaults
    /// (property names as declared, nulls written). The serialized form must be a JSON object.
    /// </summary>
    public JsonSerializerSettings SerializerSettings { get; init; } = new();

    /// <summary>
    /// The entity name (metadata <c>Raven-Entity-Name</c>, the <c>Tag</c> of the built-in index) of a type. Default:
    /// the type's name (<c>Cart</c>).
    /// </summary>
    public Func<Type, string> FindEntityName { get; init; } = static type => type.Name;

    /// <summary>
    /// The prefix of generated ids for a type, before <c>/</c> and the number. Default: the entity name lower-cased
    /// with an <c>s</c> (<c>Cart</c> gives <c>carts/1</c>, <c>carts/2</c>, ...).
    /// </summary>
    public Func<string, string> FindIdPrefix { get; init; } = static entityName => entityName.ToLowerInvariant() + "s";

    /// <summary>
    /// The name of the string property holding an entity's id (default <c>Id</c>). Set on store and load; an empty
    /// one on <see cref="DocumentSession.Store(object)"/> gets a generated id.
    /// </summary>
    public string IdentityPropertyName { get; init; } = "Id";

    /// <summary>How many round trips one session may make before it throws (default 30): a guard against N+1 loops.</summary>
    public int MaxNumberOfRequestsPerSession { get; init; } = 30;

    /// <summary>
    /// Whether sessions check etags by default: a save of a loaded document requires that nobody wrote it since it
    /// was loaded, and a new one that its id is free. Default false (last write wins). See
    /// <see cref="DocumentSession.UseOptimisticConcurrency"/>.
    /// </summary>
    public bool UseOptimisticConcurrency { get; init; }

    /// <summary>
    /// Whether <see cref="DocumentSession.Load{T}(string)"/> and queries create the type named in a document's
    /// <c>Raven-Clr-Type</c> metadata when it derives from the type asked for (polymorphic loads). Default false:
    /// the type asked for. Only types deriving from (or implementing) the requested type are ever created.
    /// </summary>
    public bool UseClrTypeOnLoad { get; init; }

    /// <summary>How many ids a store reserves at a time for each prefix (default 32). Ids left unused are skipped.</summary>
    public int IdBlockSize { get; init; } = 32;

    /// <summary>
    /// The store's entity cache (materialized entities shared by its sessions, handed out as copies) and a remote
    /// store's kept responses. See <see cref="EntityCacheOptions"/>.
    /// </summary>
    public EntityCacheOptions EntityCache { get; init; } = new();

    internal void Validate()
    {
        ArgumentNullException.ThrowIfNull(EntityCache);
        EntityCache.Validate();
        ArgumentNullException.ThrowIfNull(SerializerSettings);
        ArgumentNullException.ThrowIfNull(FindEntityName);
        ArgumentNullException.ThrowIfNull(FindIdPrefix);
        ArgumentException.ThrowIfNullOrWhiteSpace(IdentityPropertyName);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxNumberOfRequestsPerSession);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(IdBlockSize);
    }
}
